"""Edges of the offline commands: readers that yield Pages, writers that take Documents."""

from worker.io.readers import (
    BadRecord,
    ReadStats,
    iter_jsonl,
    page_from_record,
    pages_from_records,
    read_pages,
)
from worker.io.writers import FORMATS, DocumentWriter, Format, PredictionWriter, open_output

__all__ = [
    "FORMATS",
    "BadRecord",
    "DocumentWriter",
    "Format",
    "PredictionWriter",
    "ReadStats",
    "iter_jsonl",
    "open_output",
    "page_from_record",
    "pages_from_records",
    "read_pages",
]
