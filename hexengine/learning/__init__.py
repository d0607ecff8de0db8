"""Making the value network's data: self-play games and their positions' labels.

Training itself (torch) lives in ``scripts/train_value.py``; playing needs only numpy
(``hexengine.evaluation.network``).
"""
