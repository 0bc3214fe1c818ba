"""The refereed match: a live togyz game under the regulation — events, the state they fold into, settings,
results, the sealed move and the game's exports. The rules of the board itself are :mod:`toreshi.togyz`."""
