"""What people read, in their language: the gettext catalogues (``locale/``), refusals turned into sentences
(``refusals/``), and numbers, dates and units written the way the reader's language writes them.

Below both the web app and the command line (the layer contracts in ``pyproject.toml``), so that a command can say
what a page says without importing the web app.
"""
