#!/usr/bin/env python3
"""Derive spotswap's committed data fixtures from real public data.

Usage (run by a developer, never at build/test/run time):

    python3 scripts/derive-fixtures.py /path/to/shared/data [--moto-dir /path/to/site-packages/moto]

Reads (read-only):
  <data>/ec2-instances-us-east-1.txt   ec2instances.info catalogue (LeanerCloud/ec2-instances-info, MIT)
  <data>/spot-prices-2022-05-31.tsv    ericpauley/aws-spot-price-history (Unlicense)
  <data>/spot-traces/                  skypilot-org/spot-traces (NSDI'24 "Can't Be Late")
  <moto>/ec2/resources/instance_types.json.gz and instance_type_offerings/
                                       AWS DescribeInstanceTypes data as shipped by moto
                                       (--moto-dir defaults to the installed moto package)

Writes compact, deterministic JSON (sorted keys, no whitespace) into lambdas/data/fixtures/
(Biome skips **/fixtures/**/*.json, so the files stay compact and are not reformatted):
  instance-types.json   on-demand-prices.json   spot-prices.json   capacity-traces.json
The formats are described in lambdas/data/README.md; the TypeScript loaders next to it decode them.

Python 3 standard library only. Running it twice on the same input yields byte-identical files.
"""

import argparse
import gzip
import importlib.util
import json
import os
import sys

OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lambdas', 'data', 'fixtures')

REGION = 'us-east-1'

# Catalogue column -> EC2 ProductDescription (the key spot prices and OnDemandPrices use).
ON_DEMAND_COLUMNS = {
    'Linux OD cost in us-east-1': 'Linux/UNIX',
    'Windows OD cost in us-east-1': 'Windows',
    'RHEL OD cost in us-east-1': 'Red Hat Enterprise Linux',
    'SLES OD cost in us-east-1': 'SUSE Linux',
}


def write_json(name, value):
    path = os.path.join(OUT_DIR, name)
    with open(path, 'w', encoding='utf-8', newline='\n') as f:
        json.dump(value, f, sort_keys=True, separators=(',', ':'), ensure_ascii=True)
        f.write('\n')
    print(f'wrote {os.path.relpath(path)} ({os.path.getsize(path)} bytes)')


def read_catalogue(data_dir):
    """One dict per type from the tab-separated `Key: value` lines; skips the truncated tail line."""
    rows = {}
    with open(os.path.join(data_dir, 'ec2-instances-us-east-1.txt'), encoding='utf-8') as f:
        for line in f:
            fields = {}
            for cell in line.rstrip('\n').split('\t'):
                key, sep, value = cell.strip().rstrip(',').partition(':')
                if sep:
                    fields[key.strip()] = value.strip()
            name = fields.get('Instance type')
            if name:
                rows[name] = fields
    return rows


def parse_price(text):
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if value > 0 else None


def derive_on_demand_prices(catalogue):
    by_platform = {platform: {} for platform in ON_DEMAND_COLUMNS.values()}
    for name, fields in catalogue.items():
        for column, platform in ON_DEMAND_COLUMNS.items():
            price = parse_price(fields.get(column))
            if price is not None:
                by_platform[platform][name] = price
    return {REGION: by_platform}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('data_dir', help='path of the shared reference data folder')
    parser.add_argument('--moto-dir', help='path of the moto package (default: the installed one)')
    args = parser.parse_args(argv)

    os.makedirs(OUT_DIR, exist_ok=True)
    catalogue = read_catalogue(args.data_dir)
    write_json('on-demand-prices.json', derive_on_demand_prices(catalogue))


if __name__ == '__main__':
    main(sys.argv[1:])
