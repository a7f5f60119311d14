"""The package's own PEP 517 build backend, standard library only, so that
`pip install --no-build-isolation ./python` works offline on any Python 3.8+: setuptools before 70
needs the separate `wheel` package to build a wheel, and many interpreters (pyenv's, a fresh venv)
lack it. It writes the one wheel this package needs: attention_lens/ (its .py files and
assets/model-page.html) with the METADATA, WHEEL and RECORD files the wheel format asks for.
"""
import base64
import hashlib
import os
import zipfile

NAME, DIST, VERSION = 'attention-lens', 'attention_lens', '0.1.0'
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TAG = 'py3-none-any'


def _metadata():
    with open(os.path.join(ROOT, 'README.md'), encoding='utf-8') as f:
        readme = f.read()
    return (f'Metadata-Version: 2.1\nName: {NAME}\nVersion: {VERSION}\n'
            'Summary: See a model\'s attention in a notebook, offline: grid, head, finder and rollout.\n'
            'License: MIT\nRequires-Python: >=3.8\nRequires-Dist: numpy\n'
            f'Description-Content-Type: text/markdown\n\n{readme}')


def _files():
    """(path in the wheel, path on disk) of the package: its modules and its page."""
    package = os.path.join(ROOT, 'attention_lens')
    for folder, _, names in os.walk(package):
        for name in sorted(names):
            if name.endswith('.py') or name == 'model-page.html':
                disk = os.path.join(folder, name)
                yield os.path.relpath(disk, ROOT).replace(os.sep, '/'), disk


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode('ascii')
    return f'{path},sha256={digest},{len(data)}'


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = f'{DIST}-{VERSION}.dist-info'
    os.makedirs(os.path.join(metadata_directory, info), exist_ok=True)
    with open(os.path.join(metadata_directory, info, 'METADATA'), 'w', encoding='utf-8') as f:
        f.write(_metadata())
    return info


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name = f'{DIST}-{VERSION}-{TAG}.whl'
    info = f'{DIST}-{VERSION}.dist-info'
    records = []
    with zipfile.ZipFile(os.path.join(wheel_directory, name), 'w', zipfile.ZIP_DEFLATED) as z:
        def put(path, data):
            z.writestr(path, data)
            records.append(_record_line(path, data))
        for path, disk in _files():
            with open(disk, 'rb') as f:
                put(path, f.read())
        put(f'{info}/METADATA', _metadata().encode('utf-8'))
        put(f'{info}/WHEEL', f'Wheel-Version: 1.0\nGenerator: attention_lens_build\nRoot-Is-Purelib: true\nTag: {TAG}\n'.encode('ascii'))
        put(f'{info}/top_level.txt', f'{DIST}\n'.encode('ascii'))
        z.writestr(f'{info}/RECORD', '\n'.join(records + [f'{info}/RECORD,,']) + '\n')
    return name


def build_sdist(sdist_directory, config_settings=None):
    import tarfile
    name = f'{DIST}-{VERSION}'
    with tarfile.open(os.path.join(sdist_directory, f'{name}.tar.gz'), 'w:gz') as t:
        for rel in ['pyproject.toml', 'README.md', 'build_backend/attention_lens_build.py'] + [p for p, _ in _files()]:
            t.add(os.path.join(ROOT, rel), arcname=f'{name}/{rel}')
    return f'{name}.tar.gz'
