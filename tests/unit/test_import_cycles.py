"""No import circles among switchboard's modules, function-level imports included: a lazy import is for start-up,
never for hiding a loop (wire/v03 <-> wire/v10, cli/commands <-> cli/push, tui/exporting <-> screens/main <->
screens/export and the auth <-> oauth cluster were such loops). grimp reads every import statement, at module
level or inside a function; only imports under TYPE_CHECKING are left out, as in the import-linter contracts
(pyproject.toml): they are for the type checker alone and run nothing."""

from __future__ import annotations

import grimp
import pytest


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("switchboard", cache_dir=None, exclude_type_checking_imports=True)


def circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    imports = {module: sorted(graph.find_modules_directly_imported_by(module)) for module in graph.modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(imports):
        if root in index:
            continue
        work = [(root, iter(imports[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, pending = work[-1]
            step = next(pending, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(imports.get(step, ()))))
                elif step in on_stack:
                    low[module] = min(low[module], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def test_the_circle_finder_finds_a_circle_through_a_function_level_import():
    graph = grimp.ImportGraph()
    for module in ("pkg", "pkg.a", "pkg.b", "pkg.c"):
        graph.add_module(module)
    graph.add_import(importer="pkg.a", imported="pkg.b", line_number=1, line_contents="from .b import x")
    graph.add_import(importer="pkg.b", imported="pkg.a", line_number=9, line_contents="    from .a import y")
    graph.add_import(importer="pkg.c", imported="pkg.a", line_number=1, line_contents="from .a import y")
    assert circles(graph) == [["pkg.a", "pkg.b"]]


def test_grimp_sees_a_circle_closed_by_a_function_level_import(tmp_path, monkeypatch):
    package = tmp_path / "loop_probe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from . import b\n")
    (package / "b.py").write_text("def later():\n    from . import a\n    return a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    probe = grimp.build_graph("loop_probe", cache_dir=None, exclude_type_checking_imports=True)
    assert circles(probe) == [["loop_probe.a", "loop_probe.b"]]


def test_no_module_imports_itself_back_through_others(graph):
    assert circles(graph) == []


def test_no_package_and_a_module_inside_it_import_each_other():
    """`cli/__init__` <-> `cli/app` was such a cycle (a module may still use what its package's __init__ defines, as
    long as that __init__ does not import it back). Imports under TYPE_CHECKING count here too."""
    graph = grimp.build_graph("switchboard", cache_dir=None)
    cycles = sorted(
        (module, package)
        for module in graph.modules
        for package in graph.find_modules_directly_imported_by(module)
        if module.startswith(package + ".") and graph.chain_exists(importer=package, imported=module)
    )
    assert cycles == []
