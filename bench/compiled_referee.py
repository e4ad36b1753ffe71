"""tableref's referee compiled by Cython, unchanged, measured in a child process for bench/referee.py.

`build()` copies referee/ into build/bench-compiled/ and compiles every module there with Cython
(no source change, no type annotations added: what compiling buys as the code stands). The
package cannot be imported twice in one process, so bench/referee.py runs the compiled copy in a
child (`serve`), which plays the same games as the main row whenever it is told to, for as long
as it is told, and answers with its counts: the rounds stay interleaved with the other engines'.

    python bench/compiled_referee.py build
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

# bench/referee.py lies beside this file: keep this folder off the path so `referee` is the package
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

ROOT = Path(__file__).resolve().parent.parent
DEST = ROOT / "build" / "bench-compiled"


def _sources_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted((ROOT / "referee").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def build() -> Path:
    """The compiled copy, rebuilt only when referee/ changed since the last build."""
    stamp = DEST / "sources.sha256"
    digest = _sources_digest()
    if stamp.exists() and stamp.read_text() == digest:
        return DEST
    shutil.rmtree(DEST, ignore_errors=True)
    shutil.copytree(ROOT / "referee", DEST / "referee", ignore=shutil.ignore_patterns("__pycache__"))
    script = ("from setuptools import setup\nfrom Cython.Build import cythonize\n"
              "setup(ext_modules=cythonize(['referee/*.py', 'referee/rules/*.py'], "
              "exclude=['referee/__init__.py', 'referee/rules/__init__.py'], "
              "compiler_directives={'language_level': 3}, quiet=True))\n")
    (DEST / "setup.py").write_text(script)
    print("compiling referee/ with Cython into build/bench-compiled (about a minute) ...", file=sys.stderr, flush=True)
    subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-j", str(os.cpu_count() or 1)],
                   cwd=DEST, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for source in (DEST / "referee").rglob("*.py"):     # only the compiled modules may be imported
        if source.name != "__init__.py":
            source.unlink()
    stamp.write_text(digest)
    return DEST


def start_child(players: int) -> subprocess.Popen:
    """A child process playing the main row's games on the compiled copy (see `serve`)."""
    env = dict(os.environ, PYTHONPATH=str(build()))
    return subprocess.Popen([sys.executable, __file__, "serve", str(players)], env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def serve(players: int) -> None:
    """For each number of seconds read from stdin, plays bench/referee.py's main row that long on
    the compiled referee and prints `games events elapsed`."""
    import importlib.util
    import referee.game
    assert not referee.game.__file__.endswith(".py"), f"not the compiled copy: {referee.game.__file__}"
    spec = importlib.util.spec_from_file_location("bench_referee", ROOT / "bench" / "referee.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    side = bench.Side("compiled", bench.tableref_player(players, False, True))
    for line in sys.stdin:
        print(*side.run(float(line)), flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        serve(int(sys.argv[2]))
    elif sys.argv[1:2] == ["build"]:
        print(build())
    else:
        sys.exit(__doc__)
