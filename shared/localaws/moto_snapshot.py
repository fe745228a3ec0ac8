# The emulator's state kept in a folder between runs: every DynamoDB table (definition, time to
# live, items) and every S3 bucket's objects (body, metadata, last modified). Written when the
# emulator stops and every few minutes while something changed, loaded when it starts.
#
# DIR/state.json.gz   tables and object index, replaced atomically (written beside, then renamed)
# DIR/objects/SHA256  object bodies by content, so a snapshot writes only new bodies
#
# Written against moto 5.2.1's models, as moto_patches.py is (which checks the version).
import base64
import datetime
import gzip
import hashlib
import json
import os
import sys
import threading
import time

from moto.dynamodb.models import dynamodb_backends
from moto.dynamodb.models.dynamo_type import DynamoType, Item
from moto.s3.models import s3_backends

FORMAT = 1


def _created(backend_dict):
    """(account, region, backend) for the backends a request has created, creating none."""
    for account, regions in dict.items(backend_dict):
        for region, backend in dict.items(regions):
            yield account, region, backend


# Binary attributes (B, BS) are bytes in moto's items: written as {"$b": base64}.
def _bytes_out(value):
    if isinstance(value, bytes):
        return {"$b": base64.b64encode(value).decode("ascii")}
    raise TypeError(f"{type(value).__name__} is not kept in a snapshot")


def _bytes_in(obj):
    if len(obj) == 1 and "$b" in obj:
        return base64.b64decode(obj["$b"])
    return obj


class Snapshots:
    def __init__(self, folder, lock):
        self.folder = folder
        self.objects = os.path.join(folder, "objects")
        self.state = os.path.join(folder, "state.json.gz")
        self.lock = lock
        self.dirty = False

    def touched(self):
        self.dirty = True

    # --- writing ------------------------------------------------------------------------------

    def write_now(self):
        with self.lock:
            if not self.dirty:
                return
            started = time.monotonic()
            os.makedirs(self.objects, exist_ok=True)
            state = {"format": FORMAT, "tables": self._tables(), "buckets": self._buckets()}
            temp = self.state + ".new"
            with gzip.open(temp, "wt", compresslevel=1) as out:
                json.dump(state, out, separators=(",", ":"), default=_bytes_out)
            os.replace(temp, self.state)
            self._drop_unused_objects(state)
            self.dirty = False
            items = sum(len(t["items"]) for t in state["tables"])
            objects = sum(len(b["objects"]) for b in state["buckets"])
            print(
                f"emulator: kept {items} items and {objects} objects in {self.folder} "
                f"({time.monotonic() - started:.1f} s)",
                file=sys.stderr,
            )

    def every(self, seconds):
        def loop():
            while True:
                time.sleep(seconds)
                try:
                    self.write_now()
                except Exception as e:  # keep serving; the next round tries again
                    print(f"emulator: snapshot failed: {e}", file=sys.stderr)

        threading.Thread(target=loop, daemon=True).start()

    def _tables(self):
        tables = []
        for account, region, backend in _created(dynamodb_backends):
            for table in backend.tables.values():
                described = table.describe()["TableDescription"]
                tables.append(
                    {
                        "account": account,
                        "region": region,
                        "name": table.name,
                        "schema": table.schema,
                        "attr": table.attr,
                        "global_indexes": [
                            {k: ix[k] for k in ("IndexName", "KeySchema", "Projection")}
                            for ix in described.get("GlobalSecondaryIndexes", [])
                        ],
                        "indexes": [
                            {k: ix[k] for k in ("IndexName", "KeySchema", "Projection")}
                            for ix in described.get("LocalSecondaryIndexes", [])
                        ],
                        "ttl": dict(table.ttl),
                        "items": [
                            item.to_json()["Attributes"]
                            for item in table.all_items()
                            if isinstance(item, Item)
                        ],
                    }
                )
        return tables

    def _buckets(self):
        buckets = []
        for account, partition, backend in _created(s3_backends):
            for bucket in backend.buckets.values():
                objects = []
                for name in list(bucket.keys):
                    key = bucket.keys[name]
                    body = key.value
                    digest = hashlib.sha256(body).hexdigest()
                    path = os.path.join(self.objects, digest)
                    if not os.path.exists(path):
                        with open(path + ".new", "wb") as out:
                            out.write(body)
                        os.replace(path + ".new", path)
                    objects.append(
                        {
                            "key": name,
                            "body": digest,
                            "metadata": dict(key.metadata),
                            "modified": key.last_modified.replace(tzinfo=datetime.timezone.utc).timestamp(),
                        }
                    )
                buckets.append(
                    {
                        "account": account,
                        "partition": partition,
                        "region": bucket.region_name,
                        "name": bucket.name,
                        "objects": objects,
                    }
                )
        return buckets

    def _drop_unused_objects(self, state):
        used = {o["body"] for b in state["buckets"] for o in b["objects"]}
        for name in os.listdir(self.objects):
            if name not in used:
                os.remove(os.path.join(self.objects, name))

    # --- loading ------------------------------------------------------------------------------

    def load(self):
        if not os.path.exists(self.state):
            return
        started = time.monotonic()
        with gzip.open(self.state, "rt") as f:
            state = json.load(f, object_hook=_bytes_in)
        if state.get("format") != FORMAT:
            raise SystemExit(f"emulator: {self.state} is of another format; remove {self.folder} to start afresh")
        items = 0
        for t in state["tables"]:
            backend = dynamodb_backends[t["account"]][t["region"]]
            table = backend.create_table(
                t["name"],
                schema=t["schema"],
                throughput=None,
                attr=t["attr"],
                global_indexes=t["global_indexes"] or None,
                indexes=t["indexes"] or None,
                streams=None,
                billing_mode="PAY_PER_REQUEST",
                sse_specification=None,
                tags=[],
                deletion_protection_enabled=None,
                warm_throughput=None,
            )
            table.ttl = t["ttl"]
            for attrs in t["items"]:
                hash_value = DynamoType(attrs[table.hash_key_attr])
                if table.range_key_attr is not None:
                    range_value = DynamoType(attrs[table.range_key_attr])
                    table.items[hash_value][range_value] = Item(hash_value, range_value, attrs)
                else:
                    table.items[hash_value] = Item(hash_value, None, attrs)
            items += len(t["items"])
        objects = 0
        for b in state["buckets"]:
            backend = s3_backends[b["account"]][b["partition"]]
            backend.create_bucket(b["name"], b["region"])
            for o in b["objects"]:
                with open(os.path.join(self.objects, o["body"]), "rb") as f:
                    key = backend.put_object(b["name"], o["key"], f.read(), disable_notification=True)
                key.set_metadata(dict(o["metadata"]))
                key.last_modified = datetime.datetime.fromtimestamp(o["modified"], datetime.timezone.utc).replace(tzinfo=None)
                objects += 1
        print(
            f"emulator: loaded {items} items and {objects} objects from {self.folder} "
            f"({time.monotonic() - started:.1f} s)",
            file=sys.stderr,
        )
