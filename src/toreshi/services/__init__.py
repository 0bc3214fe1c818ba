"""Services: what the pages (and tests, and background tasks) call to run rooms — no HTTP here, no pure rules
either; they stamp the server's time, drive the rooms and keep the store and the accounts in step."""
