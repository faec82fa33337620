"""Hand-made replacements of library parts that earned their place by measurement.

Each module's docstring says what it replaces, the gain measured against the stock part used
as its library documents it, and the command that measured it (docs/performance.md, "Stock
parts and replacements"). None touches a library's private attribute; a part whose gain
shrinks under a tenth of the cost it attacks goes back to stock.
"""
