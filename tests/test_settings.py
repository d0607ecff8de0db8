"""The one settings table (hexengine.settings) against its three readers: the command line
(``hexengine --help``), ``param_hexengine`` over the protocol, and the searcher."""
from __future__ import annotations

import inspect
import re
import subprocess

import pytest

from hexengine.evaluation import EVALUATIONS, EvaluationSpec
from hexengine.player import Player
from hexengine.search import ORDERINGS, Searcher
from hexengine.settings import OPTION, OPTIONS, SCOPES, Settings
from tests.htpclient import engine_command

# a valid value other than the default, per row type, for the round trips below
OTHER = {"algorithm": "minimax", "evaluation": "two-distance", "max_time": "2.5",
         "ply_widths": "10,8", "ordering": "path", "swap_style": "swap-sides",
         "log_file": "-", "tempo": "1.5", "wire": "20.0", "solver_share": "0.25",
         "solver_time": "30.0", "check_share": "0.5", "probe_share": "0.2",
         "graph_division": "empty", "graph_bounds": "narrow"}


def _other(row) -> str:
    if row.name in OTHER:
        return OTHER[row.name]
    if row.type is bool:
        return "0" if row.default else "1"
    return str(row.default + 1)


@pytest.fixture(scope="module")
def help_text() -> str:
    done = subprocess.run(engine_command() + ["--help"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_every_row_is_a_command_line_option_with_its_default(help_text):
    for row in OPTIONS:
        flag = row.cli_flag
        if row.type is bool:
            flag += " / --no-" + flag[2:]
        assert re.search(rf"^\s+{re.escape(flag)}\b", help_text, re.M), row.name
    assert "--version" in help_text


def test_command_line_values_reach_param_hexengine(make_engine):
    args, want = [], {}
    for row in OPTIONS:
        if row.name in ("quiet", "log_file"):
            continue  # where logs go: the test client sets it
        text = _other(row)
        if row.type is bool:
            args.append(row.cli_flag if text == "1" else "--no-" + row.cli_flag[2:])
        else:
            args += [row.cli_flag, text]
        want[row.name] = row.format(row.parse(text))
    engine = make_engine(*args)
    listed = {line.split()[1]: line.split(" ", 2)[2]
              for line in engine.ok("param_hexengine").split("\n")}
    assert {name: listed[name] for name in want} == want


def test_param_hexengine_lists_the_table_in_order_and_sets_every_row(engine):
    lines = engine.ok("param_hexengine").split("\n")
    assert [line.split()[1] for line in lines] == [row.name for row in OPTIONS]
    for line, row in zip(lines, OPTIONS):
        if row.name in ("log_file", "max_time"):
            continue  # the test engine logs to a file and thinks 1 s
        assert line == f"[{row.kind}] {row.name} {row.format(row.default)}"
    for row in OPTIONS:
        if row.name in ("quiet", "log_file"):
            continue
        text = _other(row)
        engine.ok(f"param_hexengine {row.name} {text}")
        assert f"[{row.kind}] {row.name} {row.format(row.parse(text))}" in \
            engine.ok("param_hexengine").split("\n")


def test_rows_are_typed_and_scoped():
    for row in OPTIONS:
        assert row.scope in SCOPES, row.name
        assert row.help and row.help.endswith("."), row.name
        assert row.format(row.parse(row.format(row.default))) == row.format(row.default)
        if row.choices:
            assert row.default in row.choices
            with pytest.raises(ValueError, match=row.name):
                row.parse("no-such-choice")
    assert OPTION["evaluation"].choices == tuple(EVALUATIONS)
    assert OPTION["ordering"].choices == ORDERINGS


def test_search_rows_are_exactly_the_searchers_parameters():
    params = set(inspect.signature(Searcher.__init__).parameters) - {"self", "use_tt"}
    assert {row.name for row in OPTIONS if row.scope == "search"} == params
    Searcher(**Settings().search_options())  # every default is a value it takes


def test_the_searcher_is_kept_until_a_row_it_reads_changes():
    player = Player()
    first = player.searcher()
    for name, text in (("max_time", "3"), ("solver_share", "0.1"), ("swap_style",
                                                                     "swap-sides")):
        player.configure(name, text)
        assert player.searcher() is first, name
    try:
        player.configure("wire", "20")  # the circuit's: a new searcher
        second = player.searcher()
        assert second is not first
        player.configure("width", "9")
        assert player.searcher() is not second and player.searcher().width == 9
    finally:  # the wire is process-wide: later tests expect the default
        player.configure("wire", str(Settings().wire))


def test_settings_are_frozen_and_refuse_bad_values_by_name():
    s = Settings()
    with pytest.raises(Exception):
        s.width = 3  # type: ignore[misc]
    for name, text in (("width", "-1"), ("max_time", "0"), ("max_time", "nan"),
                       ("tempo", "13"), ("knowledge", "yes"), ("ply_widths", "1,x")):
        with pytest.raises(ValueError, match=name):
            s.with_text(name, text)
    with pytest.raises(ValueError, match="known: algorithm"):
        s.with_text("bogus", "1")


def test_evaluations_carry_their_capabilities():
    for name, spec in EVALUATIONS.items():
        assert isinstance(spec, EvaluationSpec) and spec.name == name
        assert spec.order in ORDERINGS and spec.order != "auto"
        assert not (spec.connected or spec.graph or spec.root_wires) or spec.circuit
    assert EVALUATIONS["vc-graph"].graph and EVALUATIONS["resistance"].root_wires
    assert not EVALUATIONS["shortest-path"].circuit
