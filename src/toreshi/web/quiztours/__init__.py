"""«Своя игра» tours: the team register, tours, the league table and ratings."""
