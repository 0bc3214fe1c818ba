"""What the pages do besides HTTP: creating rooms with their secrets, listing them — I/O through the store, the
accounts and the live rooms, with no request in sight (``toreshi.web`` parses forms and renders; these act)."""
