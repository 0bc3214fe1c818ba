"""Set the first arbiter's name and password on a toreshi instance from inside its container (or its machine).

``/setup`` accepts the first password only from the machine itself (docs/deploy.md), and behind nginx no browser is
"the machine itself"; inside the container, 127.0.0.1:8000 is. The stack of compose.yaml:

    read -rs TORESHI_PASSWORD && export TORESHI_PASSWORD
    docker compose exec -T -e TORESHI_PASSWORD toreshi-a python - "Арбитр" < deploy/first_arbiter.py

Standard library only (the image has no curl). Arguments: the arbiter's name, then optionally the instance's URL
(default http://127.0.0.1:8000). The password comes from $TORESHI_PASSWORD, or is asked for on a terminal.
Exit status 0 when the arbiter is signed in afterwards, 1 otherwise (already set up, refused, weak password).
"""

from __future__ import annotations

import getpass
import http.cookiejar
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request


def first_arbiter(base: str, name: str, password: str) -> str | None:
    """None when ``name`` is the signed-in arbiter afterwards, else why not."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def session() -> dict[str, object]:
        with opener.open(f"{base}/api/session", timeout=10) as response:
            answer: dict[str, object] = json.load(response)
            return answer

    form = {"name": name, "password": password, "confirm": password, "csrf": str(session()["csrf"])}
    request = urllib.request.Request(f"{base}/setup", data=urllib.parse.urlencode(form).encode(), method="POST")
    try:
        with opener.open(request, timeout=30) as response:
            landed = response.geturl()
    except urllib.error.HTTPError as error:
        return f"/setup answered {error.code} (not from the machine itself?)"
    if session().get("arbiter") == name:
        return None
    if landed.endswith("/login"):
        return "an arbiter is already set up: sign in on /login"
    return "the password was refused (at least 8 characters)"


def main(argv: list[str]) -> int:
    if not 2 <= len(argv) <= 3:
        print(__doc__, file=sys.stderr)
        return 2
    base = (argv[2] if len(argv) == 3 else "http://127.0.0.1:8000").rstrip("/")
    password = os.environ.get("TORESHI_PASSWORD") or getpass.getpass("Password: ")
    problem = first_arbiter(base, argv[1], password)
    print(problem or f"{argv[1]} is the first arbiter: sign in through the site.", file=sys.stderr)
    return 1 if problem else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
