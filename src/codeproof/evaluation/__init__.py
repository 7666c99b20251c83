"""Evaluation harness: datasets, scoring, reports."""
