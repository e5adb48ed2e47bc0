"""View patches (``ecliptic.server.patch``, docs/server.md): the diff turns each view into the
next exactly (``true`` is not ``1``, ``null`` is a value), and the browser's
``web/static/patch.js`` applies every patch as the Python reference does (run by node)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ecliptic.server.patch import apply, diff, encode, pointer, rev

PATCH_JS = Path(__file__).resolve().parents[1] / "src" / "ecliptic" / "web" / "static" / "patch.js"
KEYS = st.sampled_from(["a", "b", "c", "x/y", "t~1", "", "0", "__proto__"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([0.5, 1.0]),
                    st.sampled_from(["", "S11", "a/b"]))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(KEYS, inner, max_size=4)), max_leaves=12)


def canonical(data: Any) -> str:
    """JSON text that tells ``true`` from ``1`` and ignores the order of an object's members;
    ``1.0`` is ``1``, as it is in JavaScript (and in the browser's copy of a view)."""

    def numbers(x: Any) -> Any:
        if isinstance(x, float) and x.is_integer():
            return int(x)
        if isinstance(x, list):
            return [numbers(v) for v in x]
        if isinstance(x, dict):
            return {k: numbers(v) for k, v in x.items()}
        return x

    return json.dumps(numbers(data), sort_keys=True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON, JSON)
def test_the_diff_applied_to_the_old_document_gives_the_new_one(old: Any, new: Any) -> None:
    before = canonical(old)
    patched = apply(old, diff(old, new))
    assert canonical(patched) == canonical(new)
    assert canonical(old) == before  # apply changes a copy


def test_null_is_a_value_and_true_is_not_one() -> None:
    old = {"deadline": 5, "flag": 1, "seat": None, "n": [True, 0], "pad": "x" * 200}
    new = {"deadline": None, "flag": True, "seat": None, "n": [1, False], "pad": "x" * 200}
    ops = diff(old, new)
    assert canonical(apply(old, ops)) == canonical(new)
    assert {"op": "replace", "path": "/deadline", "value": None} in ops
    assert {"op": "replace", "path": "/flag", "value": True} in ops
    assert diff(old, old) == [] and diff(1, 1.0) == []


def test_a_small_change_is_a_small_patch_and_a_big_one_replaces_the_container() -> None:
    old = {"board": {str(i): {"ships": [i, i + 1]} for i in range(20)}, "legal": [{"id": i} for i in range(30)]}
    new = json.loads(json.dumps(old))
    new["board"]["7"]["ships"].append(9)
    new["legal"] = [{"id": 99}]
    ops = diff(old, new)
    assert ops == [{"op": "add", "path": "/board/7/ships/2", "value": 9},
                   {"op": "replace", "path": "/legal", "value": [{"id": 99}]}]


def test_pointers_escape_slash_and_tilde() -> None:
    assert pointer(("a/b", "m~n", 3)) == "/a~1b/m~0n/3"
    assert apply({"a/b": {"m~n": 1}}, [{"op": "replace", "path": "/a~1b/m~0n", "value": 2}]) == {"a/b": {"m~n": 2}}


@pytest.mark.parametrize("doc, op", [
    ({"a": 1}, {"op": "move", "path": "/a"}),
    ({"a": 1}, {"op": "replace", "path": "/b", "value": 2}),
    ({"a": 1}, {"op": "remove", "path": "/b"}),
    ({"a": [1]}, {"op": "add", "path": "/a/2", "value": 2}),
    ({"a": [1]}, {"op": "remove", "path": "/a/1"}),
    ({"a": [1]}, {"op": "replace", "path": "/a/01", "value": 2}),
    ({"a": 1}, {"op": "add", "path": "/a/b", "value": 2}),
    ({"a": {}}, {"op": "add", "path": "/x/y", "value": 2}),
    ({"a": 1}, {"op": "add", "path": "a", "value": 2}),
    ({"a": 1}, {"op": "remove", "path": ""}),
])
def test_an_operation_that_does_not_fit_is_refused_and_changes_nothing(doc: Any, op: Any) -> None:
    before = canonical(doc)
    with pytest.raises(ValueError):
        apply(doc, [op])
    assert canonical(doc) == before


def test_the_rev_is_the_digest_of_the_view_text() -> None:
    assert rev(encode({"a": 1})) == rev('{"a":1}') != rev('{"a":true}')
    assert len(rev("{}")) == 16


# -- the browser's patch.js agrees with the reference -------------------------------------------


def random_json(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 3 or roll < 0.4:
        return rng.choice([None, True, False, 0, 1, 2, -1, 0.5, "", "S11", "a/b", "~"])
    if roll < 0.7:
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {rng.choice(["a", "b", "c", "x/y", "t~1", "", "0", "__proto__"]): random_json(rng, depth + 1)
            for _ in range(rng.randrange(5))}


def mutate(rng: random.Random, data: Any) -> Any:
    if rng.random() < 0.15:
        return random_json(rng, 2)
    if isinstance(data, list):
        out = [mutate(rng, x) if rng.random() < 0.5 else x for x in data]
        if rng.random() < 0.3:
            out.append(random_json(rng, 3))
        if out and rng.random() < 0.3:
            out.pop(rng.randrange(len(out)))
        return out
    if isinstance(data, dict):
        out = {k: mutate(rng, v) for k, v in data.items() if rng.random() < 0.85}
        if rng.random() < 0.3:
            out[rng.choice(["n", "a", "z/"])] = random_json(rng, 3)
        return out
    return data


def run_js(cases: list[dict[str, Any]]) -> list[Any]:
    """Each case's ``doc`` patched by patch.js's applyPatch (``{"error": ...}`` when it throws)."""
    script = f"""
import {{ applyPatch }} from {json.dumps(PATCH_JS.as_uri())};
let text = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) text += chunk;
const out = JSON.parse(text).map(({{doc, ops}}) => {{
  try {{ return {{ok: applyPatch(doc, ops)}}; }} catch (e) {{ return {{error: String(e.message)}}; }}
}});
process.stdout.write(JSON.stringify(out));
"""
    node = shutil.which("node")
    assert node is not None
    done = subprocess.run([node, "--input-type=module", "-e", script], input=json.dumps(cases), capture_output=True,
                          text=True, timeout=60, check=True)
    result: list[Any] = json.loads(done.stdout)
    return result


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_patch_js_applies_every_patch_as_the_python_reference_does() -> None:
    rng = random.Random(17)
    cases, expected = [], []
    for _ in range(400):
        old = random_json(rng)
        new = mutate(rng, old)
        cases.append({"doc": old, "ops": diff(old, new)})
        expected.append(new)
    # real views of a Tau Ceti game, one action after another
    from ecliptic.games import get_game

    game = get_game("tauceti")
    state = game.new_game({"game": "short", "players": 3, "layout": "preset"}, 5)
    play = random.Random(5)
    views = [json.loads(json.dumps(game.observe(state, seat), default=str)) for seat in (None, 0)]
    for _ in range(40):
        game.apply(state, play.choice(game.legal_actions(state)))
        fresh = [json.loads(json.dumps(game.observe(state, seat), default=str)) for seat in (None, 0)]
        for old, new in zip(views, fresh, strict=True):
            cases.append({"doc": old, "ops": diff(old, new)})
            expected.append(new)
        views = fresh
    # operations the diff does not make but RFC 6902 allows: both agree on them too
    for doc, ops in [({"a": [1, 2, 3]}, [{"op": "remove", "path": "/a/0"}, {"op": "add", "path": "/a/0", "value": 9},
                                         {"op": "add", "path": "/a/-", "value": 4}]),
                     ({"a": {"b": 1}}, [{"op": "replace", "path": "", "value": [None]}]),
                     ({}, [{"op": "add", "path": "/__proto__", "value": {"x": 1}}])]:
        cases.append({"doc": doc, "ops": ops})
        expected.append(apply(doc, ops))
    # operations that do not fit: both refuse them
    bad = [({"a": 1}, {"op": "replace", "path": "/b", "value": 2}), ({"a": [1]}, {"op": "add", "path": "/a/2"}),
           ({"a": [1]}, {"op": "remove", "path": "/a/01"}), ({"a": 1}, {"op": "copy", "path": "/a"}),
           ({"a": 1}, {"op": "add", "path": "/a/b", "value": 2}), ({"a": {}}, {"op": "add", "path": "/x/y"})]
    for doc, op in bad:
        cases.append({"doc": doc, "ops": [op]})
    results = run_js(cases)
    for case, result, new in zip(cases, results, expected, strict=False):
        assert "ok" in result, (case, result)
        assert canonical(result["ok"]) == canonical(new) == canonical(apply(case["doc"], case["ops"]))
    for (doc, op), result in zip(bad, results[len(expected):], strict=True):
        with pytest.raises(ValueError):
            apply(doc, [op])
        assert "error" in result, (doc, op, result)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_next_view_takes_a_whole_view_applies_a_patch_to_its_base_and_refuses_another_base() -> None:
    old, new = {"index": 1, "view": {"a": [1]}}, {"index": 2, "view": {"a": [1, 2]}}
    r1, r2 = rev(encode(old)), rev(encode(new))
    messages = [{"type": "hello", "view": old, "rev": r1},
                {"type": "action", "base": r1, "rev": r2, "patch": diff(old, new)},
                {"type": "action", "base": "0" * 16, "rev": r2, "patch": []}]
    script = f"""
import {{ nextView }} from {json.dumps(PATCH_JS.as_uri())};
const [hello, patched, stray] = {json.dumps(messages)};
const first = nextView(null, null, hello);
const second = nextView(first.view, first.rev, patched);
process.stdout.write(JSON.stringify([first, second, nextView(second.view, second.rev, stray)]));
"""
    node = shutil.which("node")
    assert node is not None
    done = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60,
                          check=True)
    first, second, stray = json.loads(done.stdout)
    assert first == {"view": old, "rev": r1} and second == {"view": new, "rev": r2} and stray is None
