#!/usr/bin/env python3
"""Python's datetime.strptime on the formats and texts TimestampFormatTests checks, as Unix seconds (UTC).

Regenerate (from this directory; any Python 3.8+, no packages needed):
  python3 make_strptime_goldens.py > strptime-goldens.json
Made with CPython 3.11.

A naive result is taken as UTC (Benchbook's rule, and pandas' for naive timestamps); an aware one (%z) is
converted to UTC. `null` means strptime refuses the text. Only cases where Benchbook means to agree with
strptime are here; where it deliberately differs (full month names under %b, spaces around a cell, 7 to 9
digits of %f, an offset of hours only, a 60th or 61st second, a day of the year past the year's end, which
strptime carries into the next year), TimestampFormatTests says so beside its own expectations.
"""
import json
from datetime import datetime, timezone

CASES = [
    ("%Y/%m/%d", ["2012/01/01", "2015/12/31", "2012/02/29", "2013/02/29", "2012/1/5", "2012/13/01", "2012/00/10",
                  "2012-01-01", "12/01/01", "2012/01/32", "2012/04/31", "1969/12/31", "1900/03/01",
                  "2400/02/29", "2100/02/29"]),
    ("%d.%m.%Y", ["31.12.1999", "1.2.2003", "29.02.2000", "29.02.1900", "00.01.2000"]),
    ("%d/%m/%y", ["01/02/03", "31/12/68", "01/01/69", "15/06/99", "15/06/00"]),
    ("%Y%m%d", ["20120101", "20121231", "2012011", "201201011"]),
    ("%Y-%m-%d %H:%M:%S", ["2013-01-01 10:00:00", "2013-01-01 23:59:59", "2013-01-01 24:00:00",
                           "2013-01-01 10:60:00", "2013-01-01  10:00:00", "2013-01-01 7:5:3",
                           "2013-01-01T10:00:00"]),
    ("%Y-%m-%dT%H:%M:%S", ["2013-01-01T10:00:00", "2013-01-01t10:00:00"]),
    ("%Y-%m-%dT%H:%M:%S.%f", ["2013-01-01T10:00:00.5", "2013-01-01T10:00:00.000001", "2013-01-01T10:00:00.123456",
                              "2013-01-01T10:00:00.", "2013-01-01T10:00:00"]),
    ("%Y-%m-%dT%H:%M:%S%z", ["2013-01-01T10:00:00+0200", "2013-01-01T10:00:00+02:00", "2013-01-01T10:00:00-0530",
                             "2013-01-01T10:00:00Z", "2013-01-01T10:00:00z", "2013-01-01T10:00:00+2400",
                             "2013-01-01T10:00:00+02:60", "2013-01-01T10:00:00"]),
    ("%d %b %Y", ["05 Jan 2012", "5 jan 2012", "17 SEP 1999", "31 Feb 2012", "5 Jna 2012"]),
    ("%B %d, %Y", ["January 5, 2012", "september 30, 1999", "May 1, 2000", "Febuary 1, 2000"]),
    ("%a, %d %b %Y %H:%M:%S %z", ["Mon, 02 Jan 2012 15:04:05 -0700", "Sun, 31 Dec 2000 23:59:59 +0000",
                                  "Foo, 02 Jan 2012 15:04:05 -0700"]),
    ("%A %d %B %Y", ["Monday 02 January 2012", "wednesday 29 february 2012"]),
    ("%m/%d/%Y %I:%M %p", ["01/02/2012 12:00 AM", "01/02/2012 12:00 PM", "01/02/2012 1:30 pm", "01/02/2012 11:59 PM",
                           "01/02/2012 13:00 PM", "01/02/2012 0:00 AM", "01/02/2012 10:00"]),
    ("%Y-%j", ["2012-001", "2012-060", "2013-060", "2012-366", "2012-367", "2012-1", "2012-000"]),
    ("%H:%M", ["10:30", "0:00", "23:59", "24:00"]),
    ("%Y-%m", ["2012-03", "2012-3"]),
    ("%Y", ["2012", "201"]),
    ("%Y%%%m", ["2012%03", "2012%%03"]),
    ("week %Y", ["week 2012", "WEEK 2012", "weak 2012"]),
]

def seconds(fmt, text):
    try:
        value = datetime.strptime(text, fmt)
    except ValueError:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.timestamp()

out = [{"format": fmt, "text": text, "seconds": seconds(fmt, text)} for fmt, texts in CASES for text in texts]
print(json.dumps({"python": "strptime", "cases": out}, indent=1))
