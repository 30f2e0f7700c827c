"""jinja2 templates for tablejudge reports. Installed as the package `tablejudge_templates`."""
