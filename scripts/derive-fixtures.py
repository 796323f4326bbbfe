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

Writes compact, deterministic JSON (sorted keys, no whitespace)
(Biome skips **/fixtures/**/*.json, so the files stay compact and are not reformatted):
  lambdas/data/fixtures/on-demand-prices.json   the replacer's fallback when the Pricing API fails
  tools/data/fixtures/instance-types.json       the simulator's catalogue
  tools/data/fixtures/spot-prices.json          the simulator's spot market
  tools/data/fixtures/capacity-traces.json      the simulator's capacity traces
The formats are described in the README next to each folder; the TypeScript loaders next to it decode them.

Python 3 standard library only. Running it twice on the same input yields byte-identical files.
"""

import argparse
import gzip
import importlib.util
import json
import os
import sys

REPOSITORY = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
# What a Lambda bundles lives under lambdas/; what only the simulator and the tests read, under tools/.
LAMBDA_FIXTURES = os.path.join(REPOSITORY, 'lambdas', 'data', 'fixtures')
TOOL_FIXTURES = os.path.join(REPOSITORY, 'tools', 'data', 'fixtures')

REGION = 'us-east-1'

# Catalogue column -> EC2 ProductDescription (the key spot prices and OnDemandPrices use).
ON_DEMAND_COLUMNS = {
    'Linux OD cost in us-east-1': 'Linux/UNIX',
    'Windows OD cost in us-east-1': 'Windows',
    'RHEL OD cost in us-east-1': 'Red Hat Enterprise Linux',
    'SLES OD cost in us-east-1': 'SUSE Linux',
}


def write_json(out_dir, name, value):
    path = os.path.join(out_dir, name)
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



# --- instance-types.json -------------------------------------------------------------------------------

# Accelerators of catalogue types that AWS has retired from DescribeInstanceTypes (so moto lacks them) but that
# the 2022 spot prices and the spot traces still use. The catalogue has no accelerator columns; these counts are
# AWS's published specifications for the previous-generation accelerated instances.
RETIRED_ACCELERATORS = {
    'f1.2xlarge': ('fpga', 1, 'Xilinx'),
    'f1.4xlarge': ('fpga', 2, 'Xilinx'),
    'f1.16xlarge': ('fpga', 8, 'Xilinx'),
    'g2.2xlarge': ('gpu', 1, 'NVIDIA'),
    'g2.8xlarge': ('gpu', 4, 'NVIDIA'),
    'g3s.xlarge': ('gpu', 1, 'NVIDIA'),
    'g3.4xlarge': ('gpu', 1, 'NVIDIA'),
    'g3.8xlarge': ('gpu', 2, 'NVIDIA'),
    'g3.16xlarge': ('gpu', 4, 'NVIDIA'),
    'p2.xlarge': ('gpu', 1, 'NVIDIA'),
    'p2.8xlarge': ('gpu', 8, 'NVIDIA'),
    'p2.16xlarge': ('gpu', 16, 'NVIDIA'),
    'p3.2xlarge': ('gpu', 1, 'NVIDIA'),
    'p3.8xlarge': ('gpu', 4, 'NVIDIA'),
    'p3.16xlarge': ('gpu', 8, 'NVIDIA'),
}

# GPU models of the retired GPU types (GpuInfo.Gpus[].Name as AWS reports them for current types), from AWS's
# previous-generation instance pages: P2 Tesla K80, P3 Tesla V100, G2 GRID K520, G3 Tesla M60.
RETIRED_GPU_MODELS = {'p2': 'K80', 'p3': 'V100', 'g2': 'K520', 'g3': 'M60', 'g3s': 'M60'}

# Platform facts of the retired types, from AWS's pages: all are Xen-based (EBS as xvd devices, no NVMe) and boot on
# legacy BIOS; ENA per "Enhanced networking on Amazon EC2 instances" (P2, P3, G3 and F1 support ENA; C3, CC2, CR1,
# G2, HS1 and I2 have none); i3.metal is a Nitro bare-metal type (no hypervisor, ENA and NVMe required).
RETIRED_PLATFORM = {'p2': 'xen s u', 'p3': 'xen s u', 'g3': 'xen s u', 'g3s': 'xen s u', 'f1': 'xen s u'}
RETIRED_PLATFORM_DEFAULT = 'xen u u'
RETIRED_PLATFORM_EXACT = {'i3.metal': ' r r'}

# AWS lists HS1 among the previous-generation types that also boot paravirtual AMIs; the others here are HVM only.
RETIRED_PARAVIRTUAL = {'hs1.8xlarge'}

# DescribeInstanceTypes' support levels (NetworkInfo.EnaSupport, EbsInfo.NvmeSupport) and boot modes, by letter.
SUPPORT_LETTERS = {'required': 'r', 'supported': 's', 'unsupported': 'u'}
BOOT_MODE_LETTERS = {'legacy-bios': 'l', 'uefi': 'u'}

FLAG_LETTERS = (('bareMetal', 'm'), ('burstable', 'b'), ('currentGeneration', 'c'), ('spotSupported', 's'))


def moto_dir(explicit):
    if explicit:
        return explicit
    spec = importlib.util.find_spec('moto')  # locates the package without importing it
    if spec is None or not spec.submodule_search_locations:
        sys.exit('moto is not installed; pass --moto-dir')
    return list(spec.submodule_search_locations)[0]


def read_gzip_json(path):
    with gzip.open(path, 'rt', encoding='utf-8') as f:
        return json.load(f)


def moto_accelerator(info):
    if 'GpuInfo' in info:
        gpus = info['GpuInfo']['Gpus']
        return ['gpu', sum(g['Count'] for g in gpus), gpus[0]['Manufacturer'], gpus[0]['Name']]
    if 'FpgaInfo' in info:
        fpgas = info['FpgaInfo']['Fpgas']
        return ['fpga', sum(f['Count'] for f in fpgas), fpgas[0]['Manufacturer']]
    if 'InferenceAcceleratorInfo' in info:
        accelerators = info['InferenceAcceleratorInfo']['Accelerators']
        return ['inference', sum(a['Count'] for a in accelerators), accelerators[0]['Manufacturer']]
    if 'NeuronInfo' in info:  # trn*/inf2 report Neuron devices only; AWS builds them
        return ['inference', sum(d['Count'] for d in info['NeuronInfo']['NeuronDevices']), 'AWS']
    return None


def moto_instance_type(info):
    storage = info.get('InstanceStorageInfo')
    disks = storage['Disks'] if storage else []
    ebs = info['EbsInfo'].get('EbsOptimizedInfo', {})
    return {
        'vcpus': info['VCpuInfo']['DefaultVCpus'],
        'memoryMiB': info['MemoryInfo']['SizeInMiB'],
        'architectures': sorted(info['ProcessorInfo']['SupportedArchitectures']),
        'virtualizationTypes': sorted(info['SupportedVirtualizationTypes']),
        'accelerator': moto_accelerator(info),
        'instanceStorage': [sum(d['Count'] for d in disks), disks[0]['SizeInGB'], int(disks[0]['Type'] == 'ssd')]
        if disks
        else None,
        'ebsThroughputMBps': ebs.get('BaselineThroughputInMBps', 0),
        'bareMetal': info['BareMetal'],
        'burstable': info['BurstablePerformanceSupported'],
        'currentGeneration': info['CurrentGeneration'],
        'spotSupported': 'spot' in info['SupportedUsageClasses'],
        'platform': [
            info.get('Hypervisor', ''),  # bare metal types have none
            SUPPORT_LETTERS[info['NetworkInfo']['EnaSupport']],
            SUPPORT_LETTERS[info['EbsInfo'].get('NvmeSupport', 'unsupported')],
            ''.join(BOOT_MODE_LETTERS[mode] for mode in sorted(info['SupportedBootModes'])),
            info['ProcessorInfo'].get('Manufacturer', ''),
        ],
    }


def catalogue_cpu_manufacturer(cpu):
    for manufacturer, marker in (('AWS', 'Graviton'), ('Intel', 'Intel'), ('AMD', 'AMD')):
        if marker in cpu:
            return manufacturer
    return ''


def retired_platform(name, fields):
    family = name.split('.')[0]
    hypervisor, ena, nvme = RETIRED_PLATFORM_EXACT.get(name, RETIRED_PLATFORM.get(family, RETIRED_PLATFORM_DEFAULT)).split(' ')
    return [hypervisor, ena, nvme, 'l', catalogue_cpu_manufacturer(fields.get('CPU', ''))]


def retired_accelerator(name):
    accelerator = RETIRED_ACCELERATORS.get(name)
    if accelerator is None:
        return None
    model = RETIRED_GPU_MODELS.get(name.split('.')[0])
    return list(accelerator) + [model] if model else list(accelerator)


def catalogue_instance_type(name, fields, moto_families, spot_types):
    """A type the catalogue knows but AWS (and so moto) has retired: best facts the catalogue allows."""
    arch = fields['Arch']
    volumes = int(fields.get('Local storage volumes', '0') or 0)
    size = float(fields.get('Local storage volume size(GB)', '0') or 0)
    linux_od = parse_price(fields.get('Linux OD cost in us-east-1'))
    linux_spot = parse_price(fields.get('Linux Spot cost in us-east-1'))
    family = name.split('.')[0]
    return {
        'vcpus': int(fields['CPU cores']),
        'memoryMiB': round(float(fields['Memory(GB)']) * 1024),
        'architectures': ['i386', 'x86_64'] if arch == 'i386' else [arch],
        'virtualizationTypes': ['hvm', 'paravirtual'] if name in RETIRED_PARAVIRTUAL else ['hvm'],
        'accelerator': retired_accelerator(name),
        'instanceStorage': [volumes, int(size) if size.is_integer() else size, int(fields.get('Local storage SSD') == 'true')]
        if volumes
        else None,
        # These old types have fixed EBS bandwidth, so the catalogue's maximum is also the baseline.
        'ebsThroughputMBps': float(fields.get('EBS Throughput(MB/s)', '0') or 0),
        'bareMetal': name.endswith('.metal'),
        'burstable': False,
        'currentGeneration': moto_families.get(family, False),
        # The catalogue repeats the on-demand price as the spot price where spot is not offered.
        'spotSupported': name in spot_types or (linux_spot is not None and linux_od is not None and linux_spot < linux_od),
        'platform': retired_platform(name, fields),
    }


def compact_instance_type(t):
    flags = ''.join(letter for key, letter in FLAG_LETTERS if t[key])
    ebs = t['ebsThroughputMBps']
    return [
        t['vcpus'],
        t['memoryMiB'],
        t['architectures'],
        t['virtualizationTypes'],
        t['accelerator'],
        t['instanceStorage'],
        int(ebs) if float(ebs).is_integer() else ebs,
        flags,
        t['platform'],
    ]


def derive_instance_types(catalogue, moto, spot_types):
    types = read_gzip_json(os.path.join(moto, 'ec2', 'resources', 'instance_types.json.gz'))
    offered = read_gzip_json(os.path.join(moto, 'ec2', 'resources', 'instance_type_offerings', 'region', f'{REGION}.json.gz'))
    usable = {o['InstanceType'] for o in offered if o['Location'] == REGION}
    merged = {name: moto_instance_type(types[name]) for name in usable if name in types}
    families = {}
    for name, info in types.items():
        families[name.split('.')[0]] = families.get(name.split('.')[0], False) or info['CurrentGeneration']
    for name, fields in catalogue.items():
        if name not in merged:
            merged[name] = catalogue_instance_type(name, fields, families, spot_types)
    return {
        'columns': [
            'vcpus',
            'memoryMiB',
            'architectures',
            'virtualizationTypes',
            'accelerator: [kind, count, manufacturer, gpu model (GPUs only)] | null',
            'instanceStorage: [disks, diskSizeGb, ssd 0|1] | null',
            'ebsThroughputMBps (baseline)',
            'flags: ' + ' '.join(f'{letter}={key}' for key, letter in FLAG_LETTERS),
            'platform: [hypervisor nitro|xen|"" (bare metal), ENA r|s|u, EBS NVMe r|s|u (required, supported,'
            ' unsupported), boot modes l=legacy-bios u=uefi, CPU manufacturer]',
        ],
        'types': {name: compact_instance_type(merged[name]) for name in sorted(merged)},
    }


# --- spot-prices.json ----------------------------------------------------------------------------------

SPOT_WINDOW = ('2022-05-31T18:00:00Z', '2022-06-01T00:00:00Z')

# Zone ID prefix -> region, for every region in the price file.
ZONE_ID_PREFIXES = {
    'apne1': 'ap-northeast-1',
    'apne2': 'ap-northeast-2',
    'apne3': 'ap-northeast-3',
    'aps1': 'ap-south-1',
    'apse1': 'ap-southeast-1',
    'apse2': 'ap-southeast-2',
    'cac1': 'ca-central-1',
    'euc1': 'eu-central-1',
    'eun1': 'eu-north-1',
    'euw1': 'eu-west-1',
    'euw2': 'eu-west-2',
    'euw3': 'eu-west-3',
    'sae1': 'sa-east-1',
    'use1': 'us-east-1',
    'use2': 'us-east-2',
    'usw1': 'us-west-1',
    'usw2': 'us-west-2',
}


def zone_names_by_id(zone_ids):
    """The documented fixed mapping: within a region, the n-th zone ID in sorted order gets the n-th letter."""
    by_region = {}
    for zone_id in sorted(zone_ids, key=lambda z: (z.split('-')[0], int(z.split('-az')[1]))):
        prefix = zone_id.split('-')[0]
        if prefix not in ZONE_ID_PREFIXES:
            sys.exit(f'unknown zone ID prefix in {zone_id}; add it to ZONE_ID_PREFIXES')
        by_region.setdefault(prefix, []).append(zone_id)
    names = {}
    for prefix, ids in by_region.items():
        for index, zone_id in enumerate(ids):
            names[zone_id] = (ZONE_ID_PREFIXES[prefix], ZONE_ID_PREFIXES[prefix] + 'abcdefghij'[index])
    return names


def iso_z(timestamp):
    return timestamp.replace('+00:00', 'Z')


def read_linux_spot_rows(data_dir):
    rows = []
    with open(os.path.join(data_dir, 'spot-prices-2022-05-31.tsv'), encoding='utf-8') as f:
        for line in f:
            zone_id, instance_type, product, price, timestamp = line.rstrip('\n').split('\t')
            if product == 'Linux/UNIX':
                rows.append((zone_id, instance_type, iso_z(timestamp), float(price)))
    return rows


def derive_spot_prices(rows):
    zones = zone_names_by_id({zone_id for zone_id, _, _, _ in rows})
    pools = {}
    for zone_id, instance_type, timestamp, price in rows:
        region, zone = zones[zone_id]
        pools.setdefault(region, {}).setdefault(zone, {}).setdefault(instance_type, []).append([timestamp, price])
    for by_zone in pools.values():
        for by_type in by_zone.values():
            for instance_type, steps in by_type.items():
                steps.sort()
                # The file only has changes inside the window; the earliest one is the best known price at its start.
                steps[0][0] = SPOT_WINDOW[0]
    return {
        'window': {'start': SPOT_WINDOW[0], 'end': SPOT_WINDOW[1]},
        'zoneIds': {name: zone_id for zone_id, (_, name) in sorted(zones.items())},
        'regions': pools,
    }


# --- capacity-traces.json ------------------------------------------------------------------------------

TRACE_INSTANCE_TYPES = {
    'intel_64': 'r5.16xlarge',
    'v100_1': 'p3.2xlarge',
    'v100_8': 'p3.16xlarge',
    'k80_1': 'p2.xlarge',
    'k80_8': 'p2.8xlarge',
}


def run_length_encode(values):
    """[value, count, value, count, ...]: the traces are long flat stretches."""
    encoded = []
    for value in values:
        if encoded and encoded[-2] == value:
            encoded[-1] += 1
        else:
            encoded += [value, 1]
    return encoded


def derive_capacity_traces(data_dir):
    root = os.path.join(data_dir, 'spot-traces')
    traces = {}
    for folder, _, files in os.walk(root):
        for file in files:
            relative = os.path.relpath(os.path.join(folder, file), root).replace(os.sep, '/')
            if not file.endswith('.json') or '/gcp-' in f'/{relative}':
                continue
            zone, _, instance_key = file[: -len('.json')].partition('_')
            if instance_key not in TRACE_INSTANCE_TYPES:
                sys.exit(f'unknown instance in trace {relative}; add it to TRACE_INSTANCE_TYPES')
            with open(os.path.join(folder, file), encoding='utf-8') as f:
                trace = json.load(f)
            traces[relative[: -len('.json')]] = {
                'gapSeconds': trace['metadata']['gap_seconds'],
                'instanceType': TRACE_INSTANCE_TYPES[instance_key],
                'zone': zone,
                'length': len(trace['data']),
                'runs': run_length_encode(trace['data']),
            }
    return traces


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('data_dir', help='path of the shared reference data folder')
    parser.add_argument('--moto-dir', help='path of the moto package (default: the installed one)')
    args = parser.parse_args(argv)

    os.makedirs(LAMBDA_FIXTURES, exist_ok=True)
    os.makedirs(TOOL_FIXTURES, exist_ok=True)
    catalogue = read_catalogue(args.data_dir)
    spot_rows = read_linux_spot_rows(args.data_dir)
    us_east_spot_types = {t for zone_id, t, _, _ in spot_rows if zone_id.startswith('use1-')}
    write_json(TOOL_FIXTURES, 'instance-types.json', derive_instance_types(catalogue, moto_dir(args.moto_dir), us_east_spot_types))
    write_json(LAMBDA_FIXTURES, 'on-demand-prices.json', derive_on_demand_prices(catalogue))
    write_json(TOOL_FIXTURES, 'spot-prices.json', derive_spot_prices(spot_rows))
    write_json(TOOL_FIXTURES, 'capacity-traces.json', derive_capacity_traces(args.data_dir))


if __name__ == '__main__':
    main(sys.argv[1:])
