"""The offline commands stay light: `clean`, `eval` and `--help` import no Kafka, HTTP or metrics library,
and no numpy unless the block model runs (`--block-model`).

Each case runs in a fresh interpreter, since this test process may already have imported them.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from worker.sample import sample_dir

HEAVY = ("aiokafka", "aiohttp", "prometheus_client", "numpy")

PROBE = """
import os, sys
from worker.__main__ import main
HEAVY = os.environ["HEAVY_NAMES"].split(",")
try:
    code = main(sys.argv[1:])
except SystemExit as exc:  # --help exits
    code = exc.code
heavy = sorted({m.split('.')[0] for m in sys.modules} & set(HEAVY))
print("HEAVY=" + ",".join(heavy))
"""


def heavy_imports(argv: list[str], names: tuple[str, ...] = HEAVY) -> list[str]:
    env = {**os.environ, "HEAVY_NAMES": ",".join(names)}
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("HEAVY=")]
    assert lines, proc.stderr[-2000:]
    found = lines[-1].removeprefix("HEAVY=")
    return found.split(",") if found else []


@pytest.mark.parametrize("argv", [["--help"], ["clean", "--help"], ["eval", "--help"], ["run", "--help"]])
def test_help_imports_no_heavy_library(argv: list[str]) -> None:
    assert heavy_imports(argv) == []


def test_clean_imports_no_heavy_library(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    assert heavy_imports(["--log-level", "WARNING", "clean", str(sample_dir()), "--out", str(out)]) == []
    assert out.read_bytes().count(b"\n") == 6  # the run really cleaned the sample site


def test_pages_that_name_their_site_need_no_suffix_list(tmp_path: Path) -> None:
    # The public suffix list (~30 ms to load) is read only when a site must come from a URL.
    pages = tmp_path / "pages.jsonl"
    pages.write_text(
        '{"id": "1", "url": "https://ex.org/a", "site": "ex.org", "html": "<p>Hello there.</p>"}\n'
    )
    out = tmp_path / "out.jsonl"
    argv = ["--log-level", "WARNING", "clean", str(pages), "--out", str(out)]
    assert heavy_imports(argv, ("publicsuffixlist", "asyncio")) == []  # asyncio: demo and replay only
    argv = ["--log-level", "WARNING", "clean", str(sample_dir()), "--out", str(out)]
    # saved pages: each site comes from its URL
    assert heavy_imports(argv, ("publicsuffixlist",)) == ["publicsuffixlist"]


def test_a_page_of_a_url_needs_no_openssl_and_no_entity_table(tmp_path: Path) -> None:
    # The sites' and the memory's blake2b is hashlib's own without hashlib (whose import loads OpenSSL:
    # 9 million instructions); the html module's entity table (7.6 million) only for a field with an entity.
    pages = tmp_path / "pages.jsonl"
    page = '{"id": "1", "url": "https://ex.org/a", "html": "<title>A</title><p>Hello there.</p>"}'
    pages.write_text(page + "\n")
    out = tmp_path / "out.jsonl"
    argv = ["--log-level", "WARNING", "clean", str(pages), "--out", str(out)]
    assert heavy_imports(argv, ("hashlib", "_hashlib", "html")) == []
    assert out.read_bytes().count(b"\n") == 1


def test_str_pages_need_no_charset_detector(tmp_path: Path) -> None:
    # charset_normalizer (~6 ms to import) is imported only for bytes whose charset must be guessed.
    pages = tmp_path / "pages.jsonl"
    pages.write_text('{"id": "1", "url": "https://ex.org/a", "html": "<p>Hello there.</p>"}\n')
    out = tmp_path / "out.jsonl"
    argv = ["--log-level", "WARNING", "clean", str(pages), "--out", str(out)]
    assert heavy_imports(argv, ("charset_normalizer",)) == []
    probe = "from worker.clean import decode; decode._detect(bytes(range(256))); import sys;"
    probe += " print('charset_normalizer' in sys.modules)"
    proc = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert proc.stdout.strip() == "True"  # the probe's name is the module the detector imports


def test_rare_patterns_are_compiled_on_first_use(tmp_path: Path) -> None:
    # heuristics._lazy: a page that reaches none of them compiles none.
    pages = tmp_path / "pages.jsonl"
    pages.write_text('{"id": "1", "url": "https://ex.org/a", "html": "<p>Hello there.</p>"}\n')
    probe = (
        "import sys; from worker.__main__ import main; from worker.clean import heuristics as h;"
        f" main(['--log-level', 'WARNING', 'clean', {str(pages)!r}, '--out', {str(tmp_path / 'o.jsonl')!r}]);"
        " import re; print(sorted(n for n in h._LAZY if isinstance(vars(h)[n], re.Pattern)), len(h._LAZY))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert proc.stdout.split()[-2:] == ["[]", "9"]
    from worker.clean import heuristics as h

    for name, (pattern, flags) in h._LAZY.items():
        assert name in h.__annotations__
        assert getattr(h, name).pattern == pattern  # the stand-in compiles it on its first use
        assert vars(h)[name] == re.compile(pattern, flags)
        assert vars(h)[name] is getattr(h, name)  # bound: compiled once
    with pytest.raises(AttributeError):
        _ = h.NO_SUCH_PATTERN


def test_clean_imports_no_other_commands_libraries(tmp_path: Path) -> None:
    # Every command's module is imported to build the parser: what only `eval` (the scorer: statistics),
    # `demo` (tempfile, importlib.resources, signal) use is imported where they use it.
    out = tmp_path / "out.jsonl"
    argv = ["--log-level", "WARNING", "clean", str(sample_dir()), "--out", str(out)]
    names = ("statistics", "tempfile", "random", "decimal", "signal")
    assert heavy_imports(argv, names) == []
    probe = (
        "import sys; from worker import evaluate, sample; sample.sample_dir(); print(' '.join(sys.modules))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert {"statistics", "tempfile", "random"} <= set(proc.stdout.split())  # the probe's names are real


def test_the_block_model_brings_numpy(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    argv = ["--log-level", "WARNING", "clean", str(sample_dir()), "--out", str(out), "--block-model"]
    assert heavy_imports(argv) == ["numpy"]


def test_the_probe_sees_heavy_imports() -> None:
    # Guards the test itself: `run --help` must stay light, but importing the runner must be caught.
    proc = subprocess.run(
        [sys.executable, "-c", "import worker.stream.runner, sys; print('aiokafka' in sys.modules)"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert proc.stdout.strip() == "True"


def test_the_parser_leaves_the_collector_as_it_found_it() -> None:
    # build_parser turns the cyclic collector off for the command modules' imports only.
    import gc

    from worker.__main__ import build_parser

    assert gc.isenabled()
    build_parser()
    assert gc.isenabled()
    gc.disable()
    try:
        build_parser()
        assert not gc.isenabled()
    finally:
        gc.enable()
    probe = "import gc, importlib; seen = []; importlib.import_module = lambda n: seen.append(gc.isenabled())"
    probe += " or __import__(n, fromlist=['register']); from worker import __main__ as m;"
    probe += " m.importlib = importlib; m.build_parser(); print(set(seen), gc.isenabled())"
    proc = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert proc.stdout.split() == ["{False}", "True"]


def test_a_command_line_builds_its_own_command_s_parser_only() -> None:
    from worker.__main__ import COMMANDS, build_parser, named_command

    assert named_command(["--log-level", "clean", "eval", "x"]) == "eval"
    assert named_command(["--log-level=DEBUG", "clean", "--out", "run"]) == "clean"
    assert named_command(["-h", "clean"]) is None
    assert named_command(["--log-level", "DEBUG"]) is None

    def commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return dict(sub.choices)

    every = commands(build_parser())
    assert list(every) == list(COMMANDS)
    for name in COMMANDS:
        alone = commands(build_parser(name))
        assert list(alone) == [name]
        assert alone[name].format_help() == every[name].format_help()
    assert list(commands(build_parser("nosuch"))) == list(COMMANDS)
