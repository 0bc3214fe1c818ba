"""The JSON API's OpenAPI document: well-formed OpenAPI 3, every ``/api`` route in it, and the API answering as it
says (schemathesis generates requests from the document, valid and invalid, and checks every answer against it)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.core.result import Ok
from schemathesis.specs.openapi.checks import ignored_auth, positive_data_acceptance
from starlette.routing import Route
from starlette.testclient import TestClient

from toreshi.web.app import create_app
from toreshi.web.common.settings import Settings

from .helpers import create_togyz, sign_in

METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
EXAMPLES = int(os.environ.get("TORESHI_FUZZ_EXAMPLES", "25"))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(
        create_app(Settings(data_dir=tmp_path_factory.mktemp("openapi"))), base_url="http://testserver"
    ) as c:
        yield c


@pytest.fixture(scope="module")
def document(client: TestClient) -> dict[str, Any]:
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    found: dict[str, Any] = response.json()
    return found


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def test_the_document_is_well_formed_openapi_3(document: dict[str, Any]) -> None:
    assert re.fullmatch(r"3\.\d+\.\d+", document["openapi"])
    assert document["info"]["title"] and document["info"]["version"]
    operation_ids = []
    for path, item in document["paths"].items():
        assert path.startswith("/api/")
        assert set(re.findall(r"{(\w+)}", path)) == {
            p["name"] for op in item.values() for p in op.get("parameters", []) if p["in"] == "path"
        }, path
        for method, operation in item.items():
            assert method in METHODS
            assert operation["responses"], (path, method)
            for status, response in operation["responses"].items():
                assert re.fullmatch(r"[1-5]\d\d", status) and response["description"], (path, method, status)
            operation_ids.append(operation["operationId"])
    assert len(operation_ids) == len(set(operation_ids))
    for ref in _refs(document):  # every reference resolves inside the document
        node: Any = document
        assert ref.startswith("#/")
        for part in ref[2:].split("/"):
            node = node[part]
    schemathesis.openapi.from_dict(document).validate()  # and against the OpenAPI meta-schema


def test_every_api_route_is_documented(client: TestClient, document: dict[str, Any]) -> None:
    routes = {
        (route.path, method.lower())
        for route in client.app.routes  # type: ignore[attr-defined]
        if isinstance(route, Route) and route.path.startswith("/api/")
        for method in route.methods or ()
        if method != "HEAD"
    }
    documented = {(path, method) for path, item in document["paths"].items() for method in item}
    assert routes == documented


def test_the_api_answers_as_documented(client: TestClient, document: dict[str, Any], tmp_path: Path) -> None:
    """Generated requests (as an anonymous visitor and as the signed-in arbiter with its CSRF token) get only the
    documented statuses and bodies, and never a server error."""
    csrf = sign_in(client)
    room_id, _ = create_togyz(client, csrf)
    schema = schemathesis.openapi.from_dict(document)
    anonymous = TestClient(client.app, base_url="http://testserver")
    anonymous.portal = client.portal
    for result in schema.get_all_operations():
        assert isinstance(result, Ok), result
        operation = result.ok()

        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy())
        def check(case: Any) -> None:
            if case.path_parameters and "room_id" in case.path_parameters and len(case.path_parameters["room_id"]) % 3:
                case.path_parameters["room_id"] = room_id  # a real room often enough to check its answer too
            kwargs = case.as_transport_kwargs(base_url="http://testserver")
            for who, http in (("anonymous", anonymous), ("arbiter", client)):
                headers = dict(kwargs.get("headers") or {})
                if who == "arbiter":  # the session's own token instead of a generated one
                    headers = {k: v for k, v in headers.items() if k.lower() != "x-csrf-token"} | {"X-CSRF-Token": csrf}
                response = http.request(
                    kwargs["method"],
                    kwargs["url"],
                    headers=headers,
                    params=kwargs.get("params"),
                    content=_body(kwargs),
                )
                assert response.status_code < 500, (who, response.status_code, response.text[:300])
                # Not checked: that every schema-valid body is accepted. A game's rules refuse some combinations
                # that a JSON schema cannot state (a name of blanks, a delay with an increment); they answer 400.
                # As the arbiter, the credentials are real (not generated), so "accepts invalid authentication" is
                # checked for the anonymous visitor only.
                excluded = [positive_data_acceptance] + ([ignored_auth] if who == "arbiter" else [])
                case.validate_response(response, excluded_checks=excluded)

        check()


def _body(kwargs: dict[str, Any]) -> bytes | None:
    import json

    if "json" in kwargs:
        return json.dumps(kwargs["json"]).encode()
    data = kwargs.get("data") or kwargs.get("content")
    if isinstance(data, str):
        return data.encode()
    return data if isinstance(data, bytes) else None
