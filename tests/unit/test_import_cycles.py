"""No package and module inside it import each other: `cli/__init__` <-> `cli/app` was such a cycle (a module
may still use what its package's __init__ defines, as long as that __init__ does not import it back). Cycles
between siblings are the acyclic_siblings contract's (pyproject.toml, run by lint-imports)."""

from __future__ import annotations

import grimp


def test_no_package_and_a_module_inside_it_import_each_other():
    graph = grimp.build_graph("switchboard", cache_dir=None)
    cycles = sorted(
        (module, package)
        for module in graph.modules
        for package in graph.find_modules_directly_imported_by(module)
        if module.startswith(package + ".") and graph.chain_exists(importer=package, imported=module)
    )
    assert cycles == []
