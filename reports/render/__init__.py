"""What a page is drawn with: numbers and words in fixed formats (text), charts (figures) and
sections of blocks (section)."""
