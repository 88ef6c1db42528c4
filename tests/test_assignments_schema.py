"""The assignment endpoints fuzzed from their OpenAPI document (docs/openapi-assignments.json) with
schemathesis, against the Flask app itself (its WSGI integration, no network server): no answer is a
500, and every answer fits the document (status codes, content types, bodies). Half the generated
requests are pointed at a real assignment with its teacher token, so that they get past the 404s."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tests.assignment_helpers import assignment_app, create, maze3_id
from tests.conftest import missing
from tests.helpers import ROOT, browser

try:
    import schemathesis
except ImportError:  # requirements-dev.txt pins it
    schemathesis = None

DOC = ROOT / "docs" / "openapi-assignments.json"
MAX_EXAMPLES = 30  # per operation: CI stays fast


@pytest.fixture(scope="module")
def api_schema(tmp_path_factory):
    if schemathesis is None:
        missing("schemathesis is not installed (requirements-dev.txt)")
    folder: Path = tmp_path_factory.mktemp("fuzz")
    app = assignment_app(folder, submissions_per_minute=100_000, assignments_per_hour=100_000)
    client = browser(app)
    pid = maze3_id(app)
    made = create(client, pid, [{"kind": "predict", "points": 2, "count": 3}, {"kind": "code", "points": 5},
                                {"kind": "heuristic", "points": 1}, {"kind": "solution", "points": 1}],
                  attempts=None)
    schema = schemathesis.openapi.from_path(DOC)
    schema.app = app
    schema.fuzz_target = (made["id"], made["token"], pid)  # what the test points requests at
    return schema


def test_no_500_and_every_answer_fits_the_document(api_schema) -> None:
    """Each operation of the document, ``MAX_EXAMPLES`` generated requests (hypothesis drives the
    operations one by one: schemathesis's own pytest plugin does not load under this pytest)."""
    aid, token, pid = api_schema.fuzz_target
    from schemathesis.checks import (
        content_type_conformance,
        not_a_server_error,
        response_schema_conformance,
        status_code_conformance,
    )

    checks = [not_a_server_error, status_code_conformance, content_type_conformance,
              response_schema_conformance]
    operations = [result.ok() for result in api_schema.get_all_operations()]
    operations.sort(key=lambda op: op.method.upper() == "DELETE")  # the real assignment deleted last
    assert len(operations) == 9

    statuses = {op.label: fuzz_one(op, aid, token, pid, checks) for op in operations}
    # The fuzzing got past the 404s: the real assignment was read, and submitted to.
    assert 200 in statuses["GET /api/assignments/{aid}"], statuses
    assert statuses["POST /api/assignments/{aid}/submissions"] & {202, 400, 413}, statuses


def fuzz_one(operation, aid: str, token: str, pid: str, checks: list) -> set[int]:
    """``MAX_EXAMPLES`` requests to ``operation``; the status codes answered."""
    seen: set[int] = set()

    @given(case=operation.as_strategy())
    @settings(max_examples=MAX_EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def fuzz(case) -> None:
        # Every other example: the real assignment, the right token, the real puzzle.
        if zlib.crc32((repr(case.path_parameters) + repr(case.body)).encode()) % 2 == 0:
            if case.path_parameters and "aid" in case.path_parameters:
                case.path_parameters["aid"] = aid
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
            if isinstance(case.body, dict) and "puzzle" in case.body:
                case.body["puzzle"] = pid
        response = case.call()
        seen.add(response.status_code)
        assert response.status_code < 500, (operation.label, response.status_code, response.text[:500])
        # A schema-valid body may still name no stored puzzle (a 400): the fit of the answers is
        # checked, not that every schema-valid request succeeds.
        case.validate_response(response, checks=checks)

    fuzz()
    return seen
