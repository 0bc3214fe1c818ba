"""The room kinds: a togyz game, a quiz game, a tournament — each the kit's adapter around its pure core."""
