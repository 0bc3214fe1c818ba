"""Services: what the pages (and tests, and background tasks) call to run rooms — creating rooms with their
secrets, listing them, pushing results — with no HTTP and no pure rules here: they stamp the server's time, drive
the rooms and keep the store and the accounts in step (``toreshi.web`` parses forms and renders; these act)."""
