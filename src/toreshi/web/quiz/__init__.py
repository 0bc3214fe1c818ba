"""«Своя игра» games: creating one from a pack, its screens and its media."""
