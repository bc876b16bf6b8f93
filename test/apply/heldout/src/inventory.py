import json
import logging
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

DEFAULT_UNITS = ["kg", "g", "lb", "oz"]


@dataclass
class Item:
    name: str
    quantity: int = 0
    tags: list = field(default_factory=list)


class Inventory:
    def __init__(self, path):
        self.path = path
        self.items = {}

    def load(self):
        with open(self.path) as fh:
            data = json.load(fh)
        for row in data:
            self.items[row["name"]] = Item(**row)
        log.info("loaded %d items", len(self.items))

    def add(self, name, quantity=1):
        if name in self.items:
            self.items[name].quantity += quantity
        else:
            self.items[name] = Item(name, quantity)
        return self.items[name]

    def remove(self, name, quantity=1):
        item = self.items.get(name)
        if item is None:
            return None
        item.quantity -= quantity
        if item.quantity <= 0:
            del self.items[name]
        return item

    def save(self):
        with open(self.path, "w") as fh:
            json.dump([vars(i) for i in self.items.values()], fh)


def parse_quantity(text):
    if not text:
        return 0
    return int(text.strip())


def parse_price(text):
    if not text:
        return 0
    return float(text.strip())


def main():
    inv = Inventory("inventory.json")
    inv.load()
    inv.add("apples", 3)
    inv.save()
