"""docs/traceability.md stays honest: one row per clause, every clause either proved or listed as a gap, and every
cited test really exists (its file, and a function of that name in it)."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "docs" / "traceability.md"
REGULATIONS = ROOT.parent / "shared" / "docs" / "regulations"
ROW = re.compile(r"^\|\s*((?:TK|SI)-[A-Z0-9.]+)\s*\|(.*)\|(.*)\|\s*$")
GAP = re.compile(r"^-\s+\*\*((?:TK|SI)-[A-Z0-9.]+)\*\*")


def rows() -> list[tuple[str, str, str]]:
    found = []
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            found.append((match.group(1), match.group(2).strip(), match.group(3).strip()))
    return found


def gaps() -> set[str]:
    return {match.group(1) for line in TABLE.read_text(encoding="utf-8").splitlines() if (match := GAP.match(line))}


@cache
def defined_names(path: Path) -> frozenset[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return frozenset(node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef))


def clause_ids() -> set[str]:
    if not REGULATIONS.is_dir():
        pytest.skip(f"regulations not found at {REGULATIONS}")
    ids: set[str] = set()
    for name in ("togyz-kumalak.md", "svoya-igra.md"):
        text = (REGULATIONS / name).read_text(encoding="utf-8")
        ids |= set(re.findall(r"^\|\s*((?:TK|SI)-[A-Z0-9.]+)\s*\|", text, flags=re.MULTILINE))
    return ids


def test_one_row_per_clause() -> None:
    seen = [clause for clause, _, _ in rows()]
    duplicates = sorted({clause for clause in seen if seen.count(clause) > 1})
    assert duplicates == []


def test_every_clause_is_proved_or_listed_as_a_gap() -> None:
    covered = {clause for clause, _, _ in rows()} | gaps()
    assert sorted(clause_ids() - covered) == []
    assert sorted({clause for clause, _, _ in rows()} & gaps()) == []


def test_every_cited_test_exists() -> None:
    missing = []
    for clause, _, proofs in rows():
        node_ids = re.findall(r"(tests/[\w/]+\.py)::([\w]+)", proofs)
        if not node_ids:
            missing.append(f"{clause}: no test cited")
        for file_name, function in node_ids:
            path = ROOT / file_name
            if not path.exists() or function not in defined_names(path):
                missing.append(f"{clause}: {file_name}::{function}")
    assert missing == []


SECURITY = ROOT / "docs" / "security.md"


def test_every_security_promise_cites_tests_that_exist() -> None:
    """docs/security.md: each promise (a table row) names at least one test, and every named test exists."""
    missing = []
    promises = [line for line in SECURITY.read_text(encoding="utf-8").splitlines() if line.startswith("| ")]
    promises = [line for line in promises if not line.startswith(("| Promise", "|---"))]
    assert len(promises) >= 30
    for line in promises:
        node_ids = re.findall(r"(tests/[\w/]+\.py)::([\w]+)", line)
        if not node_ids:
            missing.append(f"no test: {line[:80]}")
        for file_name, function in node_ids:
            path = ROOT / file_name
            if not path.exists() or function not in defined_names(path):
                missing.append(f"{file_name}::{function}")
    assert missing == []
