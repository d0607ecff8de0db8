"""The scripts' shared list options (scripts/cli_types.py): checked lists, usage errors."""
from __future__ import annotations

import os
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from scripts.cli_types import SECONDS, SIZES, NumberList

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@click.command()
@click.option("--sizes", type=SIZES, default="7,9")
@click.option("--budgets", type=SECONDS, default="0.5")
@click.option("--span", type=NumberList(int, minimum=0, count=2), default="1,3")
def _show(sizes, budgets, span):
    click.echo(f"{sizes} {budgets} {span}")


@pytest.mark.parametrize("args, shown", [
    ([], "[7, 9] [0.5] [1, 3]"),
    (["--sizes", "11, 13", "--budgets", "0.2,1"], "[11, 13] [0.2, 1.0] [1, 3]"),
    (["--span", "0,40"], "[7, 9] [0.5] [0, 40]"),
])
def test_lists_reach_the_command_converted(args, shown):
    result = CliRunner().invoke(_show, args)
    assert result.exit_code == 0, result.output
    assert result.output.strip() == shown


@pytest.mark.parametrize("args, message", [
    (["--sizes", "9,x"], "want int numbers joined by commas, got '9,x'"),
    (["--sizes", "0"], "at least 1"),
    (["--budgets", "-1"], "at least 0.0"),
    (["--span", "4"], "want 2 numbers, got 1"),
    (["--sizes", ""], "want int numbers"),
])
def test_a_bad_list_is_a_usage_error_naming_the_option(args, message):
    result = CliRunner().invoke(_show, args)
    assert result.exit_code == 2
    assert f"Invalid value for '{args[0]}'" in result.output and message in result.output


@pytest.mark.parametrize("script, args", [
    ("timing.py", ["--sizes", "9,nine"]),
    ("solve_games.py", ["scripts/positions/11x11-games-results.jsonl", "--plies", "13,-1"]),
    ("value_positions.py", ["--plies", "15", "--out", "unused.json"]),
    ("bench.py", ["--sizes", "7;9"]),
])
def test_the_scripts_refuse_a_bad_list_before_any_work(script, args):
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", script), *args],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 2, proc.stderr
    assert "Invalid value for '--" in proc.stderr and "Traceback" not in proc.stderr


def test_bench_sets_a_setting_for_the_default_search_and_refuses_a_bad_one():
    script = os.path.join(ROOT, "scripts", "bench.py")
    bad = subprocess.run([sys.executable, script, "--set", "graph_bounds=wider"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert bad.returncode == 2 and "graph_bounds must be one of" in bad.stderr
    good = subprocess.run([sys.executable, script, "--sizes", "5", "--positions", "1",
                           "--default-depth", "1", "--set", "graph_bounds=narrow"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert good.returncode == 0, good.stderr
    assert "with graph_bounds=narrow: the search to depth 1" in good.stdout
    assert "| 5x5 | 1 |" in good.stdout
