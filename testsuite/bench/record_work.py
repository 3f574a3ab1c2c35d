"""make bench-record's python3 workload: a little of what a Python
service does (sqlite3 in memory, json, re), deterministic, its output
one line so that a run under the recorder can be compared with the
native one."""

import json
import re
import sqlite3

db = sqlite3.connect(":memory:")
db.execute("create table t (k integer primary key, v text)")
db.executemany("insert into t values (?, ?)",
               ((i, "v%d" % (i * 7 % 1000)) for i in range(2000)))
rows = db.execute("select v, count(*) from t group by v "
                  "order by 2 desc, 1 limit 5").fetchall()
text = json.dumps({"rows": rows, "n": [i * i for i in range(500)]})
back = json.loads(text)
words = re.findall(r"v(\d+)", text)
print(len(back["n"]), len(words), rows[0])
