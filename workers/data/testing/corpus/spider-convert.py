# Builds spider-dev.json from Spider 1.0's dev.json and tables.json: python3 spider-convert.py dev.json tables.json spider-dev.json
import json, re, sys
dev = json.load(open(sys.argv[1]))
tables = {t['db_id']: t for t in json.load(open(sys.argv[2]))}
used = sorted({d['db_id'] for d in dev})
TYPES = {'text': 'VARCHAR', 'number': 'DOUBLE', 'time': 'VARCHAR', 'boolean': 'BOOLEAN', 'others': 'VARCHAR'}
def q(n): return '"' + n.replace('"', '""') + '"'
schemas = {}
for db in used:
    t = tables[db]
    cols = {}
    for (ti, name), typ in zip(t['column_names_original'], t['column_types']):
        if ti < 0: continue
        cols.setdefault(ti, []).append(f"{q(name)} {TYPES.get(typ, 'VARCHAR')}")
    schemas[db] = [f"CREATE TABLE {q(tn)} ({', '.join(cols.get(i, []))})" for i, tn in enumerate(t['table_names_original'])]
def convert(sql):
    # SQLite reads "x" as a string when no column is named x; DuckDB reads it as a name.
    return re.sub(r'"([^"]*)"', lambda m: "'" + m.group(1).replace("'", "''") + "'", sql.strip().rstrip(';'))
queries = [{'db': d['db_id'], 'sql': convert(d['query'])} for d in dev]
json.dump({'source': 'Spider 1.0 dev set (taoyds/spider, evaluation_examples/examples/dev.json and tables.json)', 'schemas': schemas, 'queries': queries}, open(sys.argv[3], 'w'), indent=0)
print(len(queries), sum(len(v) for v in schemas.values()))
