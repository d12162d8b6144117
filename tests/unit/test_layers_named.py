"""Every module has its place in a layers contract (pyproject.toml): a module no layer names is one nobody decided
the place of, and import-linter checks nothing about it. Each container of a layers contract names all its
children, and every package of the protocol with more than one module is such a container."""

from __future__ import annotations

import tomllib
from pathlib import Path

import grimp
import pytest

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("switchboard", cache_dir=None)


def layered() -> dict[str, set[str]]:
    """Each container of a layers contract, with the names its layers give."""
    contracts = tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]["contracts"]
    named: dict[str, set[str]] = {}
    for contract in contracts:
        if contract["type"] != "layers":
            continue
        names = {name.strip() for layer in contract["layers"] for name in layer.replace(":", "|").split("|")}
        for container in contract["containers"]:
            named.setdefault(container, set()).update(names)
    return named


def children(graph: grimp.ImportGraph, package: str) -> set[str]:
    return {module[len(package) + 1 :].split(".")[0] for module in graph.modules if module.startswith(package + ".")}


def test_each_container_names_every_module_and_package_in_it(graph):
    unnamed = {container: sorted(children(graph, container) - names) for container, names in layered().items()}
    assert {container: left for container, left in unnamed.items() if left} == {}


def test_every_package_of_the_protocol_is_layered(graph):
    packages = {m for m in graph.modules if m.startswith("switchboard.a2a") and graph.find_children(m)}
    assert {p for p in packages if len(children(graph, p)) > 1} - set(layered()) == set()
