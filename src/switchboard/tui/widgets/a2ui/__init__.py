"""A2UI surfaces drawn with Textual widgets: every component of the basic catalog (build.py), a slider (slider.py),
and the surface that holds them, binds them to its data model and sends its actions (surface.py)."""
