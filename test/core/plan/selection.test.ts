import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import type { GroupConfig } from '../../../lambdas/core/config/config.ts'
import { FILTERS, generationOf, type SelectionContext } from '../../../lambdas/core/plan/filters.ts'
import { spotPricesIn } from '../../../lambdas/core/plan/prices.ts'
import { MAX_VERDICT_SETS, type Selection, selectCandidates } from '../../../lambdas/core/plan/selection.ts'
import { WorkMeter } from '../../../lambdas/core/plan/work-budget.ts'
import type { InstanceTypeInfo, SpotPriceBook } from '../../../lambdas/core/types.ts'
import { embeddedCatalog } from '../../../tools/data/catalog.ts'
import { config, realOnDemandPrices, realSpotPrices } from '../../builders/world.ts'

const catalog = embeddedCatalog()
const ZONE = 'us-east-1a'

const info = (name: string): InstanceTypeInfo => {
  const found = catalog.get(name)
  if (!found) throw new Error(`${name} is not in the embedded catalogue`)
  return found
}

/** Every catalogue type at one price in ZONE: isolates the type filters from what the snapshot happens to price. */
const flatPrices = (usd = 0.01): SpotPriceBook =>
  new Map([[ZONE, new Map([...catalog.keys()].map((name) => [name, usd]))]])

const pricesOf = (entries: Record<string, number>): SpotPriceBook =>
  new Map([[ZONE, new Map(Object.entries(entries))]])

interface Options {
  readonly config?: Partial<GroupConfig>
  readonly spotPrices?: SpotPriceBook
  readonly originalOnDemandPrice?: number | undefined
}

const contextFor = (original: string, options: Options = {}): SelectionContext => ({
  original: info(original),
  zone: ZONE,
  config: config(options.config),
  spotPrices: options.spotPrices ?? realSpotPrices(),
  originalOnDemandPrice:
    'originalOnDemandPrice' in options ? options.originalOnDemandPrice : realOnDemandPrices().get(original),
})

const select = (original: string, options: Options = {}): Selection =>
  selectCandidates(catalog, contextFor(original, options))

const ranked = (selection: Selection): string[] => selection.ranked.map((r) => r.instanceType)

/** `kept`, or the name of the filter that refused `candidate` as a replacement for `original`. */
const verdict = (original: string, candidate: string, options: Options = {}): string => {
  const selection = select(original, { spotPrices: flatPrices(), ...options })
  if (ranked(selection).includes(candidate)) return 'kept'
  return selection.rejected.get(candidate) ?? 'missing'
}

describe('selectCandidates on real May-2022 us-east-1a prices', () => {
  /** What a naive "vCPUs and memory" match picks: the trap the performance-class filters exist for. */
  const cheapestByVcpuAndMemory = (original: string): string | undefined => {
    const want = info(original)
    const prices = spotPricesIn(realSpotPrices(), ZONE)
    return [...catalog.values()]
      .filter((c) => c.architectures.includes('x86_64') && prices.has(c.name))
      .filter((c) => c.vcpus >= want.vcpus && c.memoryMiB >= want.memoryMiB)
      .sort((a, b) => (prices.get(a.name) ?? 0) - (prices.get(b.name) ?? 0))[0]?.name
  }

  it('never gives an m5.large a burstable t3.large or an arm64 t4g, though they are the cheapest fits', () => {
    expect(cheapestByVcpuAndMemory('m5.large')).toBe('t3.large')
    const selection = select('m5.large')
    expect(selection.rejected.get('t3.large')).toBe('burstable')
    expect(selection.rejected.get('t4g.large')).toBe('architecture')
    expect(ranked(selection).some((type) => type.startsWith('t'))).toBe(false)
    expect(selection.ranked.every((r) => r.info.architectures.includes('x86_64'))).toBe(true)
  })

  it('ranks by price, then closest fit, then name: r5b.large and r5n.large tie at 0.0356', () => {
    expect(ranked(select('m5.large')).slice(0, 4)).toEqual([
      'r5b.large',
      'r5n.large',
      'm6id.large',
      'r5.large',
    ])
  })

  it('never gives a g4dn.xlarge a t2.xlarge, only NVIDIA GPU types with at least one GPU', () => {
    expect(cheapestByVcpuAndMemory('g4dn.xlarge')).toBe('t2.xlarge')
    const selection = select('g4dn.xlarge')
    expect(ranked(selection)).toEqual(['g4dn.2xlarge'])
    expect(selection.rejected.has('t2.xlarge')).toBe(true)
    expect(selection.rejected.get('g5.4xlarge')).toBe('gpu-model')
    for (const { info: candidate } of selection.ranked) {
      expect(candidate.accelerator).toMatchObject({ kind: 'gpu', manufacturer: 'NVIDIA' })
      expect(candidate.accelerator?.count).toBeGreaterThanOrEqual(1)
    }
  })

  it('refuses the original type in a zone where it has no spot price (m5.large in us-east-1a)', () => {
    expect(select('m5.large').rejected.get('m5.large')).toBe('spot-offered')
  })

  it('records every refused candidate under a filter name and ranks the rest', () => {
    const selection = select('m5.large')
    const names = new Set(FILTERS.map((filter) => filter.name))
    expect(selection.ranked.length + selection.rejected.size).toBe(catalog.size)
    expect([...selection.rejected.values()].every((name) => names.has(name))).toBe(true)
    expect(ranked(selection).some((type) => selection.rejected.has(type))).toBe(false)
  })
})

describe('each filter, with real instance types', () => {
  it.each([
    ['m5.large', 'c8ine.large', 'spot-offered', 'not sold as spot'],
    ['m5.large', 't4g.large', 'architecture', 'arm64 for x86_64'],
    ['m5.large', 'm6g.large', 'architecture', 'arm64 for x86_64'],
    ['m6g.large', 'm5.large', 'architecture', 'x86_64 for arm64'],
    ['t2.micro', 't3.micro', 'hypervisor', 'i386/x86_64 and x86_64 are one family; Nitro is not Xen'],
    ['m5.metal', 'm5zn.metal', 'vcpus', '48 vCPUs for 96'],
    ['m4.large', 'm3.large', 'memory', '7.5 GiB for 8 GiB'],
    ['m5d.large', 'm5.large', 'instance-storage', 'no disk for one NVMe SSD'],
    ['m5d.large', 'd3.xlarge', 'instance-storage', 'HDDs for an SSD'],
    ['i3.large', 'm5d.2xlarge', 'instance-storage', 'a 300 GB disk for a 475 GB one'],
    ['m5d.4xlarge', 'm6id.4xlarge', 'instance-storage', 'one disk for two'],
    ['m5d.large', 'm5ad.large', 'kept', 'the same disk'],
    ['m5d.large', 'c5d.xlarge', 'kept', 'a larger SSD'],
    ['i3.large', 'i3.xlarge', 'kept', 'a larger SSD'],
    ['i3en.large', 'm5d.xlarge', 'instance-storage', 'a 150 GB disk for a 1,250 GB one'],
    ['m5d.4xlarge', 'r5d.4xlarge', 'kept', 'as many disks of the same size'],
    ['m5.large', 'm4.large', 'ebs-throughput', '56 MB/s for 81 MB/s'],
    ['g4dn.xlarge', 'g4ad.xlarge', 'ebs-throughput', '50 MB/s for 119 MB/s'],
    ['m5.large', 'm5.metal', 'bare-metal', 'bare metal for a virtualised type'],
    ['m5.large', 'm5zn.metal', 'bare-metal', 'bare metal for a virtualised type'],
    ['m5.metal', 'm5.24xlarge', 'bare-metal', 'a virtualised type for bare metal'],
    ['i3.metal', 'i3en.metal', 'kept', 'bare metal for bare metal'],
    ['m5.large', 't3.large', 'burstable', 'burstable for a fixed-performance type'],
    ['m5.large', 't3a.large', 'burstable', 'burstable for a fixed-performance type'],
    ['m6g.large', 't4g.large', 'burstable', 'burstable for a fixed-performance type'],
    ['t3.large', 't3a.large', 'kept', 'burstable for burstable'],
    ['g4dn.xlarge', 'g4ad.4xlarge', 'accelerator', 'an AMD GPU for an NVIDIA one'],
    ['g4dn.xlarge', 'f1.2xlarge', 'accelerator', 'an FPGA for a GPU'],
    ['g4dn.xlarge', 'm5d.xlarge', 'accelerator', 'no GPU for a GPU'],
    ['g4dn.12xlarge', 'g4dn.16xlarge', 'accelerator', 'one GPU for four'],
    ['m5.large', 'g4dn.xlarge', 'accelerator', 'a GPU nobody asked for'],
    ['m5.large', 'inf1.xlarge', 'accelerator', 'an Inferentia chip nobody asked for'],
    ['g4dn.xlarge', 'g4dn.2xlarge', 'kept', 'the same GPU'],
    ['g4dn.12xlarge', 'g4dn.metal', 'bare-metal', 'bare metal with more GPUs'],
    ['g4dn.12xlarge', 'g5.12xlarge', 'gpu-model', 'A10G GPUs for T4 ones'],
    ['p3.2xlarge', 'g5.4xlarge', 'gpu-model', 'an A10G for a V100'],
    ['p3.2xlarge', 'p3.8xlarge', 'kept', 'more V100s'],
    ['m4.large', 'm5.large', 'hypervisor', 'Nitro (EBS as NVMe) for Xen'],
    ['m4.large', 'm5d.large', 'hypervisor', 'Nitro (EBS as NVMe) for Xen'],
    ['t2.large', 't3.large', 'hypervisor', 'Nitro (EBS as NVMe) for Xen'],
    ['m4.large', 'm4.xlarge', 'kept', 'Xen for Xen'],
    ['m5.large', 'm6i.large', 'kept', 'Nitro for Nitro'],
    ['m5.large', 'm5.metal', 'bare-metal', 'bare metal (no hypervisor)'],
    ['c4.large', 'c4.xlarge', 'kept', 'no ENA for no ENA'],
    ['c4.large', 'p3.2xlarge', 'accelerator', 'a GPU nobody asked for'],
    ['m6g.large', 'm7g.large', 'kept', 'UEFI for UEFI'],
    ['m5.large', 'm4.xlarge', 'boot-mode', 'legacy BIOS only, for a type that also boots UEFI images'],
    ['m5.large', 'm5a.large', 'kept', 'AMD for Intel (flagged, allowed by default)'],

    ['m4.large', 'm3.xlarge', 'generation', 'previous generation 3 for previous generation 4'],
    ['c4.large', 'm4.xlarge', 'kept', 'a previous-generation type no older'],
    ['m5.large', 'm6i.large', 'kept', 'a newer previous-generation type'],
    ['m5a.large', 'm5.large', 'generation', 'a previous-generation type for a current one'],
    ['m5.large', 'm5a.large', 'kept', 'a current type for a previous-generation one'],
  ])('%s → %s: %s (%s)', (original, candidate, expected) => {
    expect(verdict(original, candidate)).toBe(expected)
  })

  it('keeps only types sharing a virtualisation type with the original', () => {
    const virtualization = FILTERS.find((filter) => filter.name === 'virtualization')
    // No current type is paravirtual-only; an old m1.small restricted to it stands for one.
    const paravirtualOnly = { ...info('m1.small'), virtualizationTypes: ['paravirtual'] as const }
    const ctx = { ...contextFor('m1.small'), original: paravirtualOnly }
    expect(virtualization?.keep(info('m3.medium'), ctx, undefined)).toBe(true)
    expect(virtualization?.keep(info('m5.large'), ctx, undefined)).toBe(false)
  })

  it('compares accelerator manufacturers case-insensitively', () => {
    const accelerator = FILTERS.find((filter) => filter.name === 'accelerator')
    const original = info('g4dn.xlarge')
    const lowerCase = {
      ...info('g4dn.2xlarge'),
      accelerator: { kind: 'gpu', count: 1, manufacturer: 'nvidia' } as const,
    }
    expect(accelerator?.keep(lowerCase, { ...contextFor('g4dn.xlarge'), original }, undefined)).toBe(true)
  })
})

describe('remembered verdicts of the filters that read no price', () => {
  /** The first filter that refuses, by running FILTERS in order: what selectCandidates must agree with. */
  const inOrder = (candidate: InstanceTypeInfo, ctx: SelectionContext): number => {
    const price = spotPricesIn(ctx.spotPrices, ctx.zone).get(candidate.name)
    const at = FILTERS.findIndex((filter) => !filter.keep(candidate, ctx, price))
    return at === -1 ? FILTERS.length : at
  }

  const originals = ['m5.large', 'm5d.large', 'g4dn.xlarge', 't3.large', 'm4.large', 'm6g.large', 'i3.metal']
  const lists: Partial<GroupConfig>[] = [
    {},
    { allowedInstanceTypes: ['t3.*', 'm5a.*'] },
    { allowedInstanceTypes: ['current'] },
    { disallowedInstanceTypes: ['r5*', 'current'] },
    { allowedInstanceTypes: ['*'], disallowedInstanceTypes: ['m5a.large'] },
  ]

  it('agree with running every filter in order, for each type, however often the catalogue is asked', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...originals),
        fc.constantFrom(...lists),
        fc.double({ min: 0.2, max: 2, noNaN: true }),
        fc.boolean(),
        (original, listConfig, multiplier, flat) => {
          const ctx = contextFor(original, {
            config: { ...listConfig, onDemandPriceMultiplier: multiplier },
            ...(flat ? { spotPrices: flatPrices(0.03) } : {}),
          })
          const meter = new WorkMeter(Number.MAX_SAFE_INTEGER)
          const selection = selectCandidates(catalog, ctx, meter)
          let units = 0
          for (const candidate of catalog.values()) {
            const at = inOrder(candidate, ctx)
            expect(selection.rejected.get(candidate.name)).toBe(FILTERS[at]?.name)
            if (spotPricesIn(ctx.spotPrices, ctx.zone).has(candidate.name))
              units += Math.min(at + 1, FILTERS.length)
          }
          expect(new Set(ranked(selection))).toEqual(
            new Set(
              [...catalog.values()].filter((c) => inOrder(c, ctx) === FILTERS.length).map((c) => c.name),
            ),
          )
          // One unit per filter the in-order run would evaluate, remembered or not.
          expect(meter.spent).toBe(units)
        },
      ),
      { numRuns: 60 },
    )
  })

  it('are kept apart by allow and deny lists: a deny list after a selection without one still refuses', () => {
    const spotPrices = flatPrices()
    expect(ranked(select('m5.large', { spotPrices }))).toContain('m5a.large')
    const denied = select('m5.large', { spotPrices, config: { disallowedInstanceTypes: ['m5a.large'] } })
    expect(denied.rejected.get('m5a.large')).toBe('deny-list')
    expect(ranked(select('m5.large', { spotPrices }))).toContain('m5a.large')
  })

  it('are worked out again, the same, once more allow and deny lists than MAX_VERDICT_SETS were seen', () => {
    const architecture = FILTERS.find((filter) => filter.name === 'architecture')
    if (architecture === undefined) throw new Error('no architecture filter')
    const asked = vi.spyOn(architecture, 'keep')
    const spotPrices = flatPrices()
    const first = ranked(select('c5.large', { spotPrices }))
    expect(asked.mock.calls.length).toBeGreaterThan(0)
    asked.mockClear()
    expect(ranked(select('c5.large', { spotPrices }))).toEqual(first)
    expect(asked).not.toHaveBeenCalled()
    // Lists anyone can write by tagging groups: one more than the bound, each new.
    for (let i = 0; i <= MAX_VERDICT_SETS; i++)
      select('c5.large', { spotPrices, config: { disallowedInstanceTypes: [`zz${i}.large`] } })
    asked.mockClear()
    expect(ranked(select('c5.large', { spotPrices }))).toEqual(first)
    expect(asked.mock.calls.length).toBeGreaterThan(0)
    asked.mockRestore()
  })

  it('are kept apart by original: an m5d.large after an m5.large still needs a disk', () => {
    const spotPrices = flatPrices()
    expect(ranked(select('m5.large', { spotPrices }))).toContain('m5.xlarge')
    expect(select('m5d.large', { spotPrices }).rejected.get('m5.xlarge')).toBe('instance-storage')
  })
})

describe('allow and deny lists', () => {
  const spotPrices = flatPrices()

  it('keeps only the original type for allow `current`', () => {
    expect(ranked(select('m5.large', { spotPrices, config: { allowedInstanceTypes: ['current'] } }))).toEqual(
      ['m5.large'],
    )
  })

  it('refuses the original type for deny `current`', () => {
    const selection = select('m5.large', { spotPrices, config: { disallowedInstanceTypes: ['current'] } })
    expect(selection.rejected.get('m5.large')).toBe('deny-list')
    expect(selection.ranked.length).toBeGreaterThan(0)
  })

  it('applies the deny list even when the allow list is *', () => {
    const selection = select('m5.large', {
      spotPrices,
      config: { allowedInstanceTypes: ['*'], disallowedInstanceTypes: ['r5*', 'm5a.large'] },
    })
    expect(selection.rejected.get('r5.large')).toBe('deny-list')
    expect(selection.rejected.get('m5a.large')).toBe('deny-list')
    expect(ranked(selection).some((type) => type.startsWith('r5') || type === 'm5a.large')).toBe(false)
    expect(ranked(selection)).toContain('m5a.xlarge')
  })

  it('refuses types outside the allow list under allow-list', () => {
    const selection = select('m5.large', {
      spotPrices,
      config: { allowedInstanceTypes: ['m5a.*', 'c5.xlarge'] },
    })
    expect(ranked(selection)).toContain('c5.xlarge')
    expect(ranked(selection).every((type) => type.startsWith('m5a.') || type === 'c5.xlarge')).toBe(true)
    expect(selection.rejected.get('r5.large')).toBe('allow-list')
  })

  it.each([
    [['t3.*'], 't3.large', 'kept', 'a named burstable family'],
    [['t3.large'], 't3.large', 'kept', 'a named burstable type'],
    [['*'], 't3.large', 'burstable', '* names nothing'],
    [['*.large'], 't3.large', 'burstable', 'a size pattern names no family'],
    [['t*'], 't3.large', 'burstable', 'a family wildcard names no family'],
    [['g4dn.*'], 'g4dn.xlarge', 'kept', 'a named GPU family'],
    [['*'], 'g4dn.xlarge', 'accelerator', '* names nothing'],
    [['m4.*'], 'm4.xlarge', 'boot-mode', 'naming never relaxes the boot mode'],
    [['t4g.*'], 't4g.large', 'architecture', 'naming never relaxes the architecture'],
    [['m5.metal'], 'm5.metal', 'bare-metal', 'naming never relaxes bare metal'],
    [['m5d.*'], 'm5d.large', 'kept', 'instance storage is never a reason to refuse more'],
  ])('allow %j for an m5.large: %s is %s (%s)', (allowed, candidate, expected) => {
    expect(verdict('m5.large', candidate, { config: { allowedInstanceTypes: allowed } })).toBe(expected)
  })
})

describe('substitutions that can break a workload', () => {
  it('lets a named previous-generation family cross the generation filter: m3.* for an m4.large', () => {
    expect(verdict('m4.large', 'm3.xlarge')).toBe('generation')
    expect(verdict('m4.large', 'm3.xlarge', { config: { allowedInstanceTypes: ['m3.*'] } })).toBe('kept')
    expect(verdict('m4.large', 'm3.xlarge', { config: { allowedInstanceTypes: ['*.xlarge'] } })).toBe(
      'generation',
    )
  })

  it.each([
    ['m4.large', 'm5.large'],
    ['m4.large', 'm5d.large'],
    ['t2.large', 't3.large'],
  ])('moves a Xen %s to a Nitro or ENA-only %s only with ALLOW_XEN_TO_NITRO', (original, candidate) => {
    expect(verdict(original, candidate)).not.toBe('kept')
    expect(verdict(original, candidate, { config: { allowXenToNitro: true } })).toBe('kept')
  })

  it('moves a p3.2xlarge (V100) to a g5.4xlarge (A10G) only with ALLOW_GPU_MODEL_CHANGE (and Nitro allowed)', () => {
    expect(verdict('p3.2xlarge', 'g5.4xlarge', { config: { allowXenToNitro: true } })).toBe('gpu-model')
    expect(verdict('p3.2xlarge', 'g5.4xlarge', { config: { allowGpuModelChange: true } })).toBe('hypervisor')
    expect(
      verdict('p3.2xlarge', 'g5.4xlarge', { config: { allowGpuModelChange: true, allowXenToNitro: true } }),
    ).toBe('kept')
  })

  it('lets an allow list naming a GPU family change the GPU model: g5.* for a g4dn.xlarge', () => {
    expect(verdict('g4dn.xlarge', 'g5.4xlarge')).toBe('gpu-model')
    expect(verdict('g4dn.xlarge', 'g5.4xlarge', { config: { allowedInstanceTypes: ['g5.*'] } })).toBe('kept')
    expect(verdict('g4dn.xlarge', 'g5.4xlarge', { config: { allowedInstanceTypes: ['*'] } })).toBe(
      'gpu-model',
    )
  })

  it('refuses a type requiring ENA for one that does not, unless the image is said to be ready for Nitro', () => {
    // Every catalogue type requiring ENA also needs NVMe drivers (hypervisor comes first): a Xen type
    // requiring ENA stands for the image attribute EC2 checks at launch.
    const ena = FILTERS.find((filter) => filter.name === 'ena')
    const xenWithEna = {
      ...info('m4.xlarge'),
      platform: { ...info('m4.xlarge').platform, enaSupport: 'required' as const },
    }
    expect(ena?.keep(xenWithEna, contextFor('m4.large'), undefined)).toBe(false)
    expect(
      ena?.keep(xenWithEna, contextFor('m4.large', { config: { allowXenToNitro: true } }), undefined),
    ).toBe(true)
    expect(ena?.keep(info('m6i.large'), contextFor('m5.large'), undefined)).toBe(true)
    expect(ena?.keep(info('m4.xlarge'), contextFor('m4.large'), undefined)).toBe(true)
  })

  it('refuses a boot mode the image may need whatever the settings', () => {
    const all = { allowXenToNitro: true, allowGpuModelChange: true }
    expect(verdict('m5.large', 'm4.xlarge', { config: all })).toBe('boot-mode')
  })

  it('flags an Intel to AMD move and refuses it with ALLOW_CPU_VENDOR_CHANGE=false', () => {
    const kept = select('m5.large', { spotPrices: flatPrices() }).ranked
    expect(kept.find((c) => c.instanceType === 'm5a.large')?.flags).toEqual(['cpu-vendor-change'])
    expect(kept.find((c) => c.instanceType === 'm5n.large')?.flags).toEqual([])
    expect(verdict('m5.large', 'm5a.large', { config: { allowCpuVendorChange: false } })).toBe('cpu-vendor')
    expect(verdict('m5.large', 'm5n.large', { config: { allowCpuVendorChange: false } })).toBe('kept')
  })

  it('flags a generation change and refuses it with ALLOW_GENERATION_CHANGE=false', () => {
    const kept = select('m5.large', { spotPrices: flatPrices() }).ranked
    expect(kept.find((c) => c.instanceType === 'm6i.large')?.flags).toEqual(['generation-change'])
    expect(kept.find((c) => c.instanceType === 'm6a.large')?.flags).toEqual([
      'cpu-vendor-change',
      'generation-change',
    ])
    expect(verdict('m5.large', 'm6i.large', { config: { allowGenerationChange: false } })).toBe(
      'generation-change',
    )
    expect(verdict('m5.large', 'm5n.large', { config: { allowGenerationChange: false } })).toBe('kept')
  })

  it('keeps verdicts apart by these settings: a refusal is not remembered for a group that allows it', () => {
    const spotPrices = flatPrices()
    expect(select('m4.large', { spotPrices }).rejected.get('m5.large')).toBe('hypervisor')
    expect(ranked(select('m4.large', { spotPrices, config: { allowXenToNitro: true } }))).toContain(
      'm5.large',
    )
    expect(
      select('m5.large', { spotPrices, config: { allowCpuVendorChange: false } }).rejected.get('m5a.large'),
    ).toBe('cpu-vendor')
  })
})

describe('the price filter', () => {
  // m5.large costs 0.096/h on demand; real us-east-1a spot prices.
  it.each([
    [0.4, ['r5b.large', 'r5n.large', 'm6id.large', 'r5.large'], 'm5ad.large'],
    [0.46, ['r5b.large', 'r5n.large', 'm6id.large', 'r5.large', 'm5ad.large'], 'm5a.large'],
  ])('keeps spot prices below on-demand × %d', (multiplier, kept, firstRefused) => {
    const selection = select('m5.large', { config: { onDemandPriceMultiplier: multiplier } })
    expect(ranked(selection)).toEqual(kept)
    expect(selection.rejected.get(firstRefused)).toBe('price')
  })

  it('lets more types through with a multiplier above 1', () => {
    expect(select('m5.large', { config: { onDemandPriceMultiplier: 2 } }).ranked.length).toBeGreaterThan(
      select('m5.large').ranked.length,
    )
  })

  it('refuses a spot price equal to the limit', () => {
    const spotPrices = pricesOf({ 'm5a.large': 0.096, 'm5n.large': 0.0959 })
    expect(ranked(select('m5.large', { spotPrices }))).toEqual(['m5n.large'])
  })

  it('refuses everything when the original on-demand price is unknown', () => {
    const selection = select('m5.large', { originalOnDemandPrice: undefined })
    expect(selection.ranked).toEqual([])
    expect(selection.rejected.get('m5a.large')).toBe('price')
  })
})

describe('ranking', () => {
  it('breaks price ties toward the closest fit (vCPUs, then memory), then by name', () => {
    const spotPrices = pricesOf({
      'm5a.2xlarge': 0.04,
      'm5a.xlarge': 0.04,
      'r5a.large': 0.04,
      'm5n.large': 0.04,
      'm5a.large': 0.04,
    })
    expect(ranked(select('m5.large', { spotPrices }))).toEqual([
      'm5a.large',
      'm5n.large',
      'r5a.large',
      'm5a.xlarge',
      'm5a.2xlarge',
    ])
  })

  it('puts a cheaper larger type before a pricier closer fit', () => {
    const spotPrices = pricesOf({ 'm5a.large': 0.05, 'm5a.2xlarge': 0.049 })
    expect(ranked(select('m5.large', { spotPrices }))).toEqual(['m5a.2xlarge', 'm5a.large'])
  })

  it('with prefer_newer_generations, ranks by generation first and price within a generation', () => {
    const spotPrices = pricesOf({
      'm5a.large': 0.03,
      'm6a.large': 0.05,
      'm6i.large': 0.045,
      'c5.xlarge': 0.02,
    })
    expect(ranked(select('m5.large', { spotPrices }))).toEqual([
      'c5.xlarge',
      'm5a.large',
      'm6i.large',
      'm6a.large',
    ])
    expect(
      ranked(
        select('m5.large', {
          spotPrices,
          config: { prioritizedInstanceTypesBias: 'prefer_newer_generations' },
        }),
      ),
    ).toEqual(['m6i.large', 'm6a.large', 'c5.xlarge', 'm5a.large'])
  })

  it('is deterministic whatever the catalogue order', () => {
    const reversed = new Map([...catalog].reverse())
    const ctx = contextFor('m5.large')
    expect(ranked(selectCandidates(reversed, ctx))).toEqual(ranked(selectCandidates(catalog, ctx)))
  })
})

describe('purity', () => {
  it('does not modify the catalogue, the configuration or the prices', () => {
    const ctx = contextFor('g4dn.xlarge', { config: { allowedInstanceTypes: ['g*', 'current'] } })
    const frozen = new Map([...catalog].map(([name, type]) => [name, Object.freeze(structuredClone(type))]))
    const before = structuredClone({ catalog: [...frozen], config: ctx.config, prices: [...ctx.spotPrices] })
    selectCandidates(frozen, Object.freeze(ctx))
    expect({ catalog: [...frozen], config: ctx.config, prices: [...ctx.spotPrices] }).toEqual(before)
  })
})

describe('generationOf', () => {
  it.each([
    ['m5.large', 5],
    ['m5a.large', 5],
    ['c6gn.xlarge', 6],
    ['x2iedn.xlarge', 2],
    ['inf1.xlarge', 1],
    ['p3dn.24xlarge', 3],
    ['u-6tb1.metal', 0],
  ])('%s is generation %i', (type, generation) => {
    expect(generationOf(type)).toBe(generation)
  })
})
