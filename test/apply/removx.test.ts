// Removals (docs/apply.md, branch removx).
// 1. A deleted definition whose edge repeats the kept lines beside it (`[Fact]` above each test):
//    the alignment keeps the deleted one's attribute and drops the next one's, a reading the update
//    does not show; the other reading of the same text is shown adjacent, and licenses it
//    (rotated-gap.ts). Revealed by Java cases (u java03, ap java01); the guard is C#.
// 2. An import whose last uses an instructed removal took, when the instruction names one of its
//    words, goes with them (dead-imports.ts). Revealed by Ruby, Python and Rust cases (ad rb01,
//    aq py03, z rs02); the guards are TypeScript and PHP, and a control: an import the instruction
//    does not name stays, though dead (d py03's `import time`).
import { beforeAll, describe, expect, it } from 'vitest';
import { mergedEverywhere } from './judged.js';
import { checkLoss } from '../../src/apply/loss.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

const csCode = "using System;\nusing Xunit;\n\nnamespace Billing.Tests;\n\npublic class InvoiceTotalsTests\n{\n    private readonly InvoiceCalculator _calc = new(TaxTable.Default);\n\n    [Fact]\n    public void EmptyInvoiceTotalsZero()\n    {\n        var total = _calc.Total(Array.Empty<LineItem>());\n        Assert.Equal(0m, total);\n    }\n\n    [Fact]\n    public void TotalsWithLegacyRounding()\n    {\n        var total = _calc.Total(new[] { new LineItem(\"a\", 1.005m, 3) }, legacyRounding: true);\n        Assert.Equal(3.02m, total);\n    }\n\n    [Fact]\n    public void AppliesTaxPerLine()\n    {\n        var total = _calc.Total(new[] { new LineItem(\"book\", 10m, 2, \"reduced\") });\n        Assert.Equal(21.4m, total);\n    }\n}\n";
const csUpdate = "    // ... existing code ...\n\n    [Fact]\n    public void EmptyInvoiceTotalsZero()\n    {\n        var total = _calc.Total(Array.Empty<LineItem>());\n        Assert.Equal(0m, total);\n    }\n\n    [Fact]\n    public void AppliesTaxPerLine()\n    {\n        // ... existing code ...\n    }\n}\n";
const csExpected = "using System;\nusing Xunit;\n\nnamespace Billing.Tests;\n\npublic class InvoiceTotalsTests\n{\n    private readonly InvoiceCalculator _calc = new(TaxTable.Default);\n\n    [Fact]\n    public void EmptyInvoiceTotalsZero()\n    {\n        var total = _calc.Total(Array.Empty<LineItem>());\n        Assert.Equal(0m, total);\n    }\n\n    [Fact]\n    public void AppliesTaxPerLine()\n    {\n        var total = _calc.Total(new[] { new LineItem(\"book\", 10m, 2, \"reduced\") });\n        Assert.Equal(21.4m, total);\n    }\n}\n";

const tsCode = "import { Router } from 'express';\nimport { stringify } from 'csv-stringify/sync';\nimport { listInvoices } from './invoices';\n\nexport const reports = Router();\n\nreports.get('/summary', async (_req, res) => {\n  const invoices = await listInvoices();\n  res.json({ count: invoices.length });\n});\n\nexport function legacyCsvExport(rows: Array<Record<string, unknown>>): string {\n  return stringify(rows, { header: true });\n}\n\nreports.get('/recent', async (_req, res) => {\n  const invoices = await listInvoices({ limit: 20 });\n  res.json(invoices);\n});\n";
const tsUpdate = "// ...\nreports.get('/summary', async (_req, res) => {\n  const invoices = await listInvoices();\n  res.json({ count: invoices.length });\n});\n\nreports.get('/recent', async (_req, res) => {\n// ...\n";
const tsExpected = "import { Router } from 'express';\nimport { listInvoices } from './invoices';\n\nexport const reports = Router();\n\nreports.get('/summary', async (_req, res) => {\n  const invoices = await listInvoices();\n  res.json({ count: invoices.length });\n});\n\nreports.get('/recent', async (_req, res) => {\n  const invoices = await listInvoices({ limit: 20 });\n  res.json(invoices);\n});\n";
const tsKeptImport = "import { Router } from 'express';\nimport { stringify } from 'csv-stringify/sync';\nimport { listInvoices } from './invoices';\n\nexport const reports = Router();\n\nreports.get('/summary', async (_req, res) => {\n  const invoices = await listInvoices();\n  res.json({ count: invoices.length });\n});\n\nreports.get('/recent', async (_req, res) => {\n  const invoices = await listInvoices({ limit: 20 });\n  res.json(invoices);\n});\n";

const phpCode = "<?php\n\nnamespace App\\Http\\Controllers;\n\nuse App\\Exports\\LegacyXmlWriter;\nuse App\\Models\\Order;\nuse Illuminate\\Http\\JsonResponse;\n\nclass OrderController extends Controller\n{\n    public function index(): JsonResponse\n    {\n        return response()->json(Order::latest()->paginate(20));\n    }\n\n    public function exportXml(): string\n    {\n        return (new LegacyXmlWriter())->write(Order::all());\n    }\n\n    public function show(Order $order): JsonResponse\n    {\n        return response()->json($order);\n    }\n}\n";
const phpUpdate = "    public function index(): JsonResponse\n    {\n        return response()->json(Order::latest()->paginate(20));\n    }\n\n    public function show(Order $order): JsonResponse\n    {\n        // ... existing code ...\n    }\n}\n";
const phpExpected = "<?php\n\nnamespace App\\Http\\Controllers;\n\nuse App\\Models\\Order;\nuse Illuminate\\Http\\JsonResponse;\n\nclass OrderController extends Controller\n{\n    public function index(): JsonResponse\n    {\n        return response()->json(Order::latest()->paginate(20));\n    }\n\n    public function show(Order $order): JsonResponse\n    {\n        return response()->json($order);\n    }\n}\n";

/** mergedEverywhere (judged.ts) with an instruction: every mode exact, nothing lost by the oracle. */
function mergedWith(code: string, update: string, expected: string, instruction: string): void {
  mergedEverywhere(code, update, expected, instruction);
}

describe('removals by adjacency and by instruction (removx)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('of a test whose attribute repeats the one kept above it', () => {
    mergedEverywhere(csCode, csUpdate, csExpected);
    expect(checkLoss(csCode, csUpdate, null, csExpected).lost).toEqual([]);
  });

  it('of an import the instruction names, left without a use by the removal', () => {
    mergedWith(tsCode, tsUpdate, tsExpected, 'remove the legacy CSV export, nothing calls it now');
    mergedWith(phpCode, phpUpdate, phpExpected, 'Remove the XML export action.');
  });

  it('not of a dead import the instruction does not name', () => {
    mergedWith(tsCode, tsUpdate, tsKeptImport, 'remove the unused export helper');
    expect(checkLoss(tsCode, tsUpdate, 'remove the unused export helper', tsExpected).lost.length).toBeGreaterThan(0);
  });
});
