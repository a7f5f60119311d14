"""The package is typed for its users: py.typed ships beside it, every function and method of every
module (public or not) has annotations for each parameter and its return, and mypy --strict, where an
interpreter has it (Debian: python3-mypy; npm test runs this suite there too), finds nothing."""
import importlib
import inspect
import os
import pkgutil
import subprocess
import sys

import pytest

import attention_lens

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def functions():
    modules = [attention_lens] + [importlib.import_module(f'attention_lens.{m.name}') for m in pkgutil.iter_modules(attention_lens.__path__)]
    for module in modules:
        for name, f in vars(module).items():
            if inspect.isfunction(f) and f.__module__ == module.__name__:
                yield f'{module.__name__}.{name}', f
            if inspect.isclass(f) and f.__module__ == module.__name__:
                for m, g in vars(f).items():
                    if inspect.isfunction(g):
                        yield f'{module.__name__}.{name}.{m}', g


def test_py_typed_ships_beside_the_package():
    assert os.path.isfile(os.path.join(ROOT, 'attention_lens', 'py.typed'))


def test_every_function_is_annotated():
    seen = dict(functions())
    assert {'attention_lens.show', 'attention_lens.save', 'attention_lens.AttentionView._repr_mimebundle_', 'attention_lens.text.token_list'} <= set(seen)
    missing = []
    for name, f in seen.items():
        sig = inspect.signature(f)
        for p in sig.parameters.values():
            if p.name != 'self' and p.annotation is inspect.Parameter.empty:
                missing.append(f'{name}({p.name})')
        if sig.return_annotation is inspect.Signature.empty:
            missing.append(f'{name} -> ?')
    assert not missing, f'not annotated: {missing}'


def test_mypy_strict():
    if subprocess.run([sys.executable, '-m', 'mypy', '--version'], capture_output=True).returncode != 0:
        pytest.skip('mypy is not installed in this interpreter (Debian: python3-mypy)')
    r = subprocess.run([sys.executable, '-m', 'mypy', '--no-incremental', '--cache-dir', os.devnull], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith('Success')
