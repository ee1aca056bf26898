"""The README's commands run: every `paperscore ...` line of its shell blocks that scores
bundled data (tests/data/...) exits 0, the set-up run command included."""

import re
import shlex

import pytest
from conftest import ROOT

from paperscore import cli

README = (ROOT / "README.md").read_text(encoding="utf-8")
SHELL_LINES = [line for block in re.findall(r"```bash\n(.*?)```", README, re.S) for line in block.splitlines()]
COMMANDS = [part.strip() for line in SHELL_LINES for part in line.split("&&") if part.strip().startswith("paperscore ") and "tests/data/" in part]


def test_the_readme_has_runnable_commands():
    assert len(COMMANDS) >= 5
    assert any("compare" in command for command in COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_command_runs(command, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # where -o reports land
    # the repository's files, also as NAME=FILE,FILE (compare --system)
    argv = [re.sub(r"(^|=|,)tests/", lambda m: f"{m[1]}{ROOT}/tests/", arg) for arg in shlex.split(command.split("#")[0])[1:]]
    assert cli.main(argv) == 0, capsys.readouterr().err
    assert "signature" in capsys.readouterr().out
