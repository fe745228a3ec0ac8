# Patches to moto that make a request cost what it touches, not what the table holds, and keep the
# emulator's memory to what it stores.
# Written against moto 5.2.1 (checked at start: another version is refused, since these replace
# moto's own functions and must be re-read against its code when moto is raised). Measured with
# bench (go test -bench Emulator ./shared/localaws): see docs/performance.md.
#
# 1. transact_write_items: moto 5.2.1 deep-copies the whole table once for every item of a
#    transaction, to roll back on failure (a 10-item transaction on 5,000 items took 2.6 s). The
#    emulator runs one request at a time (moto_serial.py), so a rollback only needs each touched
#    item's prior state: an undo log. Validation, cancellation reasons and
#    ReturnValuesOnConditionCheckFailure are moto's own, unchanged.
# 2. Table.query read every item of the table (all_items) and kept those of the partition. A query
#    on the table now reads its partition; one on a global secondary index reads the items holding
#    that index's hash key, from a map kept up to date by every write (put, update, delete, a
#    transaction and its rollback).
# 3. Responses: moto serialises an item attribute by asking each of AttributeValue's ten members
#    (S, N, B, M, L...) for a value through its alias machinery, about 1 ms per returned item. An
#    attribute value that is a dict now serialises the members it holds, through moto's own
#    serialisers (so blobs, numbers and nesting are written as before).
# 4. Memory: moto's BaseModel.__new__ appends every model instance it ever makes to a class list
#    (instances_tracked, read only by moto's reset and its model-data debug page), so every item
#    version, every copy a query or transaction makes and every S3 object body stayed in memory
#    for the life of the process: 17.9 GB after a few hours of make dev. Instances are no longer
#    tracked, so what nothing refers to is freed.
# 5. Routing: to find the backend for a request, moto's server asks whether the request's host is
#    one of moto's own module names (backends.list_of_moto_modules), which lists moto's package
#    folder and stats each of its ~200 entries; it does so twice per request, about a quarter of
#    the emulator's CPU per DynamoDB call (cProfile over shared/collections' tests: 10.5 of 45.7 s).
#    The folder doesn't change while the server runs, so it is listed once. Likewise the names of
#    a response class's methods, which moto gathered with inspect.getmembers on every request to
#    check that the action is one (another 5%), are gathered once per class.
# 6. Item size: moto checks the 400 KB limit on every attribute it sets, by measuring every
#    attribute the item already holds (LimitedSizeDict), so building an item of n attributes
#    measures n²/2 of them: 8% of the emulator's CPU over shared/collections' tests. An item is
#    now built whole and measured once, against the same limit with the same error.
# 7. Update expressions: moto parses each one twice per update (the request's check of the names it
#    uses, then the update), and every transaction item's again; the parse is a pure function of
#    the text, and the one step that changes the tree (the validator) works on its own deep copy.
#    Parses are kept by their text (a bounded cache).
# 8. DynamoDB requests go straight to moto's DynamoDB handler, as moto's Flask view would send them,
#    without Flask's request and app contexts, its URL map and its CORS hook (about a seventh of
#    the emulator's CPU per call). What needs Flask (a compressed body, a browser's CORS request,
#    every other service: S3) still goes through moto's own application.
import copy
import functools
import inspect

import moto
from moto import backends
from moto.core import responses as moto_responses
from moto.dynamodb.exceptions import (
    ConditionalCheckFailed,
    MockValidationException,
    MultipleTransactionsException,
    TooManyTransactionsException,
    TransactionCanceledException,
    TransactWriteSingleOpException,
)
from moto.core.common_models import BaseModel
from moto.core.serialize import BaseJSONSerializer
from moto.dynamodb.comparisons import get_filter_expression
from moto.dynamodb.models import DynamoDBBackend
from moto.dynamodb.models.dynamo_type import DynamoType, Item, LimitedSizeDict
from moto.dynamodb.models.utilities import bytesize
from moto.dynamodb.exceptions import ItemSizeTooLarge
from moto.dynamodb.parsing.expressions import UpdateExpressionParser
from moto.dynamodb.models.table import Table

PATCHED_VERSION = "5.2.1"


def apply():
    if moto.__version__ != PATCHED_VERSION:
        raise SystemExit(
            f"moto_patches: written for moto {PATCHED_VERSION}, found {moto.__version__}; "
            f'install it with: python3 -m pip install "moto[server]=={PATCHED_VERSION}"'
        )
    DynamoDBBackend.transact_write_items = transact_write_items
    DynamoDBBackend.update_item = _reindexing_update(DynamoDBBackend.update_item)
    Table.put_item = _reindexing_put(Table.put_item)
    Table.delete_item = _reindexing_delete(Table.delete_item)
    Table.query = _narrowed_query(Table.query)
    Table.all_items = _narrowed_all_items(Table.all_items)
    DynamoDBBackend.update_table = _forgetting_indexes(DynamoDBBackend.update_table)
    BaseModel.__new__ = staticmethod(_untracked_new)
    module_names = tuple(backends.list_of_moto_modules())  # read at start-up, once
    backends.list_of_moto_modules = lambda: module_names
    moto_responses.method_names_from_class = functools.cache(moto_responses.method_names_from_class)
    BaseJSONSerializer._serialize_type_structure = _direct_attribute_values(
        BaseJSONSerializer._serialize_type_structure
    )
    Item.__init__ = _item_measured_once
    # 7: a parse kept by its text (the validator deep-copies the tree it changes).
    UpdateExpressionParser.make = classmethod(functools.lru_cache(maxsize=4096)(UpdateExpressionParser.make.__func__))


# --- 1. Transactions with an undo log ---------------------------------------------------------


def transact_write_items(self, transact_items):
    """moto 5.2.1's DynamoDBBackend.transact_write_items, with an undo log instead of copies of
    the tables. Lines not marked "undo" are moto's."""
    if len(transact_items) > 100:
        raise TooManyTransactionsException()
    undo = []  # undo: (table, hash key, range key, the item before this transaction or None)

    def roll_back():  # undo: newest first, so an item touched twice ends as it began
        for table, hash_value, range_value, before in reversed(undo):
            _restore(table, hash_value, range_value, before)

    target_items = set()

    def check_unicity(table_name, key):
        item = (str(table_name), str(dict(sorted(key.items()))))
        if item in target_items:
            raise MultipleTransactionsException()
        target_items.add(item)

    errors = []  # [(Code, Message, Item), ..]
    for item in transact_items:
        original_item = None
        if len(list(item.keys())) > 1:
            raise TransactWriteSingleOpException
        try:
            op_type, op = next(iter(item.items()))
            if op_type not in {"ConditionCheck", "Put", "Delete", "Update"}:
                raise ValueError("Unsupported transaction operation")

            table_name = op["TableName"]
            condition_expression = op.get("ConditionExpression")
            expression_attribute_names = op.get("ExpressionAttributeNames")
            expression_attribute_values = op.get("ExpressionAttributeValues")
            return_values_on_condition_check_failure = op.get(
                "ReturnValuesOnConditionCheckFailure"
            )

            if op_type == "Put":
                attrs = op["Item"]
                table = self.get_table(table_name)
                key = {table.hash_key_attr: attrs[table.hash_key_attr]}
                if table.range_key_attr is not None:
                    key[table.range_key_attr] = attrs[table.range_key_attr]
            else:
                key = op["Key"]

            check_unicity(table_name, key)

            current = self.get_item(table_name, key)
            if op_type != "ConditionCheck":  # undo: remember the item before writing it
                table = self.get_table(table_name)
                hash_value, range_value = self.get_keys_value(table, key)
                undo.append((table, hash_value, range_value, copy.deepcopy(current)))
            if condition_expression is not None:
                condition_op = get_filter_expression(
                    condition_expression,
                    expression_attribute_names,
                    expression_attribute_values,
                )
                if not condition_op.expr(current):
                    if return_values_on_condition_check_failure == "ALL_OLD" and current:
                        original_item = current.to_json()["Attributes"]
                    raise ConditionalCheckFailed(item=original_item)

            if op_type == "Put":
                self.put_item(
                    table_name,
                    op["Item"],
                    condition_expression=condition_expression,
                    expression_attribute_names=expression_attribute_names,
                    expression_attribute_values=expression_attribute_values,
                )
            elif op_type == "Delete":
                self.delete_item(
                    table_name,
                    key,
                    condition_expression=condition_expression,
                    expression_attribute_names=expression_attribute_names,
                    expression_attribute_values=expression_attribute_values,
                )
            elif op_type == "Update":
                self.update_item(
                    table_name,
                    key,
                    update_expression=op["UpdateExpression"],
                    condition_expression=condition_expression,
                    expression_attribute_names=expression_attribute_names,
                    expression_attribute_values=expression_attribute_values,
                )
            errors.append((None, None, None))
        except (MultipleTransactionsException, MockValidationException):
            roll_back()
            raise
        except ConditionalCheckFailed as e:
            errors.append(("ConditionalCheckFailed", str(e.message), original_item))
        except Exception as e:  # noqa: E722 moto's: other exceptions become reasons
            errors.append((type(e).__name__, str(e), original_item))

    if any(code is not None for code, _, _ in errors):
        roll_back()
        raise TransactionCanceledException(errors)


def _restore(table, hash_value, range_value, before):
    """Puts back the item at a key as it was (None: no item), without a stream record."""
    _unindex(table, hash_value, range_value)
    if table.range_key_attr is not None:
        if before is None:
            table.items[hash_value].pop(range_value, None)
        else:
            table.items[hash_value][range_value] = before
    elif before is None:
        table.items.pop(hash_value, None)
    else:
        table.items[hash_value] = before
    if before is not None:
        _index(table, before)


# --- 2. Queries that read their partition or index key ----------------------------------------
#
# table._gsi_keys: {index name: {index hash value: {(hash, range): None}}}, and
# table._gsi_of: {(hash, range): {index name: index hash value}} to move an item when it changes.
# Built on a table's first index query from its items, then kept by every write.


def _gsi_hash_attr(index):
    hashes = [k["AttributeName"] for k in index.schema if k["KeyType"] == "HASH"]
    return hashes[0] if len(hashes) == 1 else None


def _ensure_gsi_map(table):
    if getattr(table, "_gsi_keys", None) is not None:
        return
    table._gsi_keys = {ix.name: {} for ix in table.global_indexes if _gsi_hash_attr(ix)}
    table._gsi_of = {}
    for item in Table.all_items.__wrapped__(table):
        _index(table, item)


def _item_key(item):
    return (item.hash_key, item.range_key)


def _index(table, item):
    if getattr(table, "_gsi_keys", None) is None or not isinstance(item, Item):
        return
    held = {}
    for ix in table.global_indexes:
        attr = _gsi_hash_attr(ix)
        value = item.attrs.get(attr) if attr else None
        if value is not None:
            table._gsi_keys[ix.name].setdefault(value, {})[_item_key(item)] = None
            held[ix.name] = value
    if held:
        table._gsi_of[_item_key(item)] = held


def _unindex(table, hash_value, range_value):
    if getattr(table, "_gsi_keys", None) is None:
        return
    key = (hash_value, range_value)
    for name, value in table._gsi_of.pop(key, {}).items():
        keys = table._gsi_keys[name].get(value)
        if keys is not None:
            keys.pop(key, None)
            if not keys:
                del table._gsi_keys[name][value]


def _reindexing_put(put_item):
    def patched(self, item_attrs, *args, **kwargs):
        item = put_item(self, item_attrs, *args, **kwargs)
        _unindex(self, item.hash_key, item.range_key)
        _index(self, item)
        return item

    return patched


def _reindexing_delete(delete_item):
    def patched(self, hash_key, range_key):
        item = delete_item(self, hash_key, range_key)
        if item is not None:
            _unindex(self, item.hash_key, item.range_key)
        return item

    return patched


def _reindexing_update(update_item):
    # An update changes the item in place (moto's UpdateExpressionExecutor), so it is indexed
    # again afterwards, failed or not.
    def patched(self, table_name, key, *args, **kwargs):
        table = self.get_table(table_name)
        try:
            return update_item(self, table_name, key, *args, **kwargs)
        finally:
            try:
                hash_value, range_value = self.get_keys_value(table, key)
            except Exception:
                hash_value = None
            if hash_value is not None:
                _unindex(table, hash_value, range_value)
                current = table.get_item(hash_value, range_value)
                if current is not None:
                    _index(table, current)

    return patched


def _forgetting_indexes(update_table):
    # A table's indexes may change: its map is built again on its next index query.
    def patched(self, name, *args, **kwargs):
        table = update_table(self, name, *args, **kwargs)
        self.get_table(name)._gsi_keys = None
        return table

    return patched


def _narrowed_query(query):
    signature = inspect.signature(query)

    def patched(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs).arguments
        index_name = bound.get("index_name")
        if not index_name:
            self._read_only = ("table", bound.get("hash_key"))
        else:
            index = next((ix for ix in self.global_indexes if ix.name == index_name), None)
            attr = _gsi_hash_attr(index) if index is not None else None
            conditions = dict(bound.get("hash_key_conditions") or [])
            if attr and set(conditions) == {attr}:
                _ensure_gsi_map(self)
                self._read_only = (index_name, conditions[attr])
        try:
            return query(self, *args, **kwargs)
        finally:
            self._read_only = None

    return patched


def _narrowed_all_items(all_items):
    def patched(self):
        only = getattr(self, "_read_only", None)
        if only is None:
            return all_items(self)
        where, value = only
        if where == "table":
            part = self.items.get(value)
            if part is None:
                return []
            return list(part.values()) if self.range_key_attr else [part]
        keys = self._gsi_keys[where].get(value, {})
        return [self.get_item(h, r) for h, r in keys]

    patched.__wrapped__ = all_items
    return patched


# --- 3. Attribute values serialised by the members they hold ----------------------------------


def _direct_attribute_values(serialize_structure):
    def patched(self, serialized, value, shape, key):
        if shape.name != "AttributeValue" or type(value) is not dict:
            return serialize_structure(self, serialized, value, shape, key)
        wrapper = self.MAP_TYPE() if key else serialized
        for member_key, member_value in value.items():
            member_shape = shape.members.get(member_key)
            if member_shape is None or member_value is None:
                continue
            member_shape.parent = shape
            self._serialize(wrapper, member_value, member_shape, member_key)
        if key:
            self._default_serialize(serialized, wrapper, shape, key)

    return patched


# --- 4. Model instances not tracked -------------------------------------------------------------


def _untracked_new(cls, *args, **kwargs):
    return super(BaseModel, cls).__new__(cls)


# --- 6. An item measured once -------------------------------------------------------------------

ITEM_SIZE_LIMIT = 405000  # moto's own figure (dynamo_type.LimitedSizeDict): AWS's 400 KB, measured


def _item_measured_once(self, hash_key, range_key, attrs):
    # moto's Item.__init__, with LimitedSizeDict's check made once for the whole item: sizes are
    # never negative, so the sum exceeds the limit at the end exactly when it did at some step.
    self.hash_key = hash_key
    self.range_key = range_key
    values = {key: DynamoType(value) for key, value in attrs.items()}
    if sum(bytesize(key) + value.size() for key, value in values.items()) > ITEM_SIZE_LIMIT:
        raise ItemSizeTooLarge
    self.attrs = LimitedSizeDict()
    dict.update(self.attrs, values)  # LimitedSizeDict's later sets still check (update expressions)


# --- 8. DynamoDB without Flask ------------------------------------------------------------------


def dynamodb_direct(app):
    """dynamodb_direct wraps moto's WSGI application: DynamoDB calls go to moto's handler as its
    Flask view (moto.core.utils.convert_to_flask_response) would call it, everything else to app."""
    from botocore.exceptions import ClientError
    from flask.wrappers import Request
    from moto.dynamodb.responses import DynamoHandler
    from werkzeug.wrappers import Response

    def wsgi(environ, start_response):
        if (
            not environ.get("HTTP_X_AMZ_TARGET", "").startswith("DynamoDB_20120810.")
            or "HTTP_CONTENT_ENCODING" in environ  # moto's Flask hook decompresses gzip
            or "HTTP_ORIGIN" in environ  # a browser's call: moto's CORS headers
        ):
            return app(environ, start_response)
        request = Request(environ)  # Flask's class, as moto's view receives
        try:
            result = DynamoHandler.dispatch(request, request.url, dict(request.headers))
        except ClientError as exc:
            result = 400, {}, exc.response["Error"]["Message"]
        status, headers, content = result if len(result) == 3 else (200, {}, result)
        return Response(response=content, status=status, headers=headers)(environ, start_response)

    return wsgi
