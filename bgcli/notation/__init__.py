"""Notations users paste: gnubg Position/Match IDs, XGID, dice and move text."""
