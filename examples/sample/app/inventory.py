"""A tiny inventory: the sample project minitools' tour works on."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Item:
    name: str
    price: float
    quantity: int = 0

    def total(self) -> float:
        return self.price * self.quantity


class Inventory:
    def __init__(self) -> None:
        self.items: dict[str, Item] = {}

    def add(self, item: Item) -> None:
        if item.name in self.items:
            raise ValueError(f"duplicate item {item.name}")
        self.items[item.name] = item

    def find(self, name: str) -> Item | None:
        item = self.items.get(name)
        if item is None:
            print("missing", name)
        return item

    def value(self) -> float:
        return sum(item.total() for item in self.items.values())
