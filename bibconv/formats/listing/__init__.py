"""Listing pages and pasted text: the HTML and plain-text readers, their site readers and shared helpers."""
