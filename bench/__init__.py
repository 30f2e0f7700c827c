"""Benchmarks: `python -m bench` prints one JSON object. Ratios against raw sqlite3 measured in the
same run; medians of repeated runs."""
