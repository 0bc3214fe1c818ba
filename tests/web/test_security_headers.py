"""Every page carries the security headers, no template holds an inline script, refusals of the middleware read in
the reader's language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from toreshi.web.common.middleware import CONTENT_SECURITY_POLICY
from toreshi.web.common.templates import TEMPLATE_DIR

PAGES = ["/", "/login", "/setup", "/tournaments", "/quiz", "/static/css/toreshi.css", "/api/session", "/nowhere"]


@pytest.mark.parametrize("path", PAGES)
def test_every_response_has_the_security_headers(client: TestClient, path: str) -> None:
    headers = client.get(path).headers
    assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "same-origin"


def test_the_policy_allows_no_inline_script_and_no_framing() -> None:
    directives = dict(part.strip().split(" ", 1) for part in CONTENT_SECURITY_POLICY.split(";"))
    assert directives["script-src"] == "'self'" and "unsafe" not in CONTENT_SECURITY_POLICY
    assert directives["frame-ancestors"] == "'none'" and directives["object-src"] == "'none'"


STANDALONE_DOCUMENTS = {"results/crosstable_document.html", "results/document.html"}
"""Written into a file of the results bundle, never answered by the app: a file opened from disk has no CSP and no
app to fetch a stylesheet from, so its style is inside it."""


def test_no_template_holds_an_inline_script_handler_or_style() -> None:
    found = []
    for template in sorted(Path(TEMPLATE_DIR).rglob("*.html")):
        if template.relative_to(TEMPLATE_DIR).as_posix() in STANDALONE_DOCUMENTS:
            continue
        text = template.read_text()
        for match in re.finditer(r"<script(?P<attrs>[^>]*)>", text):
            attrs = match.group("attrs")
            if "src=" not in attrs and "application/json" not in attrs:
                found.append(f"{template.name}: inline <script>")
        if re.search(r"\son[a-z]+\s*=", text):
            found.append(f"{template.name}: inline event handler")
        if "<style" in text or re.search(r'\sstyle="', text):
            found.append(f"{template.name}: inline style")
    assert not found, found


def test_a_cross_site_post_is_refused_in_the_readers_language(client: TestClient) -> None:
    response = client.post(
        "/login", data={"name": "x"}, headers={"origin": "http://evil.example", "accept-language": "ru"}
    )
    assert response.status_code == 403 and response.text == "Эта форма отправлена с другого сайта: отклонено."


def test_a_body_over_its_limit_is_refused_in_the_readers_language(client: TestClient) -> None:
    response = client.post(
        "/login", content=b"x" * (2 * 1024 * 1024), headers={"content-type": "text/plain", "accept-language": "kk"}
    )
    assert response.status_code == 413 and response.text == "Жіберілген дерек тым үлкен: ең көбі 1024 КиБ."
