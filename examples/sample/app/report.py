from __future__ import annotations

from app.inventory import Inventory, Item


def build() -> Inventory:
    inventory = Inventory()
    inventory.add(Item("apple", 0.5, 10))
    inventory.add(Item("pear", 0.75, 4))
    return inventory


def main() -> None:
    inventory = build()
    total = inventory.value()
    print("items", len(inventory.items))
    print("total", total)


if __name__ == "__main__":
    main()
