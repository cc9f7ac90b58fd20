/**
 * Gauntlet items that only the workspace's knowledge can answer (issue 24): coded columns,
 * placeholders that must be excluded, a unit, a join key named differently in two tables, and
 * the user's rules (what revenue is, when the fiscal year starts). Each item says which text of
 * the dictionary or rules a model must have been shown (`needs`), the SQL a model writes with
 * that knowledge and the SQL it writes without it, and the answer, worked out by hand from the
 * data below (the test checks the knowing SQL gives it and the naive one does not).
 */
import type { DataDictionary, WorkspaceRule } from '../../../protocol/agent/knowledge';

export const KNOWLEDGE_FILES = {
  'survey.csv': `respondent_id,region,sex,income,satisfaction
1,1,1,40,4
2,2,2,-9,5
3,2,1,60,3
4,3,2,55,9
5,1,2,-9,2
6,4,1,70,4
7,2,2,45,9
8,3,1,-9,5
9,2,1,50,1
10,1,2,65,3
11,4,1,35,4
12,2,1,80,9
`,
  'orders.csv': `order_id,cust_no,amount_cents,status,order_date
1,101,1250,C,2024-06-15
2,102,4000,R,2024-07-03
3,101,2500,C,2024-08-20
4,103,10000,C,2024-12-01
5,104,750,C,2025-02-10
6,102,3000,C,2025-05-30
7,103,5000,R,2025-07-02
8,105,2000,C,2025-03-15
`,
  'customers.csv': `customer_id,segment,country
101,B,DE
102,P,FR
103,B,DE
104,P,NL
105,P,DE
`,
} as const;

const col = (name: string, description: string, extra: Partial<DataDictionary['columns'][number]> = {}): DataDictionary['columns'][number] => ({
  name,
  description,
  unit: '',
  role: 'other',
  codes: [],
  missing: [],
  ...extra,
});
const base = { status: 'accepted' as const, source: 'gauntlet', updated_at: '2026-01-01T00:00:00.000Z', grain: '', caveats: [], joins: [] };

export const KNOWLEDGE_DICTIONARIES: DataDictionary[] = [
  {
    ...base,
    dataset: 'survey',
    row_meaning: 'one survey respondent',
    grain: 'respondent_id',
    columns: [
      col('respondent_id', 'Respondent number', { role: 'identifier' }),
      col('region', 'Region of residence', { role: 'dimension', codes: [{ code: '1', meaning: 'North' }, { code: '2', meaning: 'South' }, { code: '3', meaning: 'East' }, { code: '4', meaning: 'West' }] }),
      col('sex', 'Sex of the respondent', { role: 'dimension', codes: [{ code: '1', meaning: 'male' }, { code: '2', meaning: 'female' }] }),
      col('income', 'Yearly net income', { role: 'measure', unit: 'thousand EUR', missing: ['-9'] }),
      col('satisfaction', 'Satisfaction score from 1 (low) to 5 (high)', { role: 'measure', missing: ['9'] }),
    ],
  },
  {
    ...base,
    dataset: 'orders',
    row_meaning: 'one order',
    joins: [{ column: 'cust_no', other_dataset: 'customers', other_column: 'customer_id' }],
    columns: [
      col('order_id', 'Order number', { role: 'identifier' }),
      col('cust_no', 'The customer who ordered', { role: 'identifier' }),
      col('amount_cents', 'Order amount', { role: 'measure', unit: 'cents' }),
      col('status', 'Order status', { role: 'dimension', codes: [{ code: 'C', meaning: 'completed' }, { code: 'R', meaning: 'refund' }] }),
      col('order_date', 'Day the order was placed', { role: 'date' }),
    ],
  },
  {
    ...base,
    dataset: 'customers',
    row_meaning: 'one customer',
    columns: [
      col('customer_id', 'Customer number', { role: 'identifier' }),
      col('segment', 'Customer segment', { role: 'dimension', codes: [{ code: 'B', meaning: 'business' }, { code: 'P', meaning: 'private' }] }),
      col('country', 'Country code (ISO 3166-1 alpha-2)', { role: 'dimension' }),
    ],
  },
];

export const KNOWLEDGE_RULES: WorkspaceRule[] = [
  { id: 'rule-revenue', text: 'Revenue excludes refunds (status R) and is reported in euros.', created_at: '2026-01-01T00:00:00.000Z', source: 'typed' },
  { id: 'rule-fiscal', text: 'Fiscal year N runs from 1 July of year N-1 to 30 June of year N.', created_at: '2026-01-01T00:00:01.000Z', source: 'typed' },
];

export interface KnowledgeItem {
  id: string;
  question: string;
  /** What the prompt must show for a model to answer correctly (dictionary or rule text). */
  needs: string[];
  knowingSql: string;
  naiveSql: string;
  /** The first cell of the right result. */
  expected: number | string;
  /** Which kind of knowledge the item needs. */
  kind: 'codes' | 'placeholder' | 'unit' | 'join' | 'rule';
}

const REVENUE = "amount_cents / 100.0";
const MISSING_INCOME = 'missing when "-9"';

export const KNOWLEDGE_ITEMS: KnowledgeItem[] = [
  { id: 'k-income-mean', kind: 'placeholder', question: 'What is the average income of the respondents?', needs: [MISSING_INCOME], knowingSql: 'SELECT avg(income) FROM survey WHERE income <> -9', naiveSql: 'SELECT avg(income) FROM survey', expected: 55.5556 },
  { id: 'k-south-count', kind: 'codes', question: 'How many respondents live in the South?', needs: ['2 = South'], knowingSql: 'SELECT count(*) FROM survey WHERE region = 2', naiveSql: "SELECT count(*) FROM survey WHERE CAST(region AS VARCHAR) = 'South'", expected: 5 },
  { id: 'k-female-share', kind: 'codes', question: 'What share of the respondents are women?', needs: ['2 = female'], knowingSql: 'SELECT avg(CASE WHEN sex = 2 THEN 1 ELSE 0 END) FROM survey', naiveSql: 'SELECT avg(CASE WHEN sex = 1 THEN 1 ELSE 0 END) FROM survey', expected: 0.416667 },
  { id: 'k-satisfaction-mean', kind: 'placeholder', question: 'What is the average satisfaction score?', needs: ['missing when "9"'], knowingSql: 'SELECT avg(satisfaction) FROM survey WHERE satisfaction <> 9', naiveSql: 'SELECT avg(satisfaction) FROM survey', expected: 3.44444 },
  { id: 'k-top-region', kind: 'codes', question: 'Which region has the most respondents?', needs: ['2 = South'], knowingSql: "SELECT CASE region WHEN 1 THEN 'North' WHEN 2 THEN 'South' WHEN 3 THEN 'East' ELSE 'West' END AS region FROM survey GROUP BY ALL ORDER BY count(*) DESC LIMIT 1", naiveSql: 'SELECT CAST(region AS VARCHAR) FROM survey GROUP BY region ORDER BY count(*) DESC LIMIT 1', expected: 'South' },
  { id: 'k-east-median-income', kind: 'placeholder', question: 'What is the median income in the East?', needs: ['3 = East', MISSING_INCOME], knowingSql: 'SELECT median(income) FROM survey WHERE region = 3 AND income <> -9', naiveSql: 'SELECT median(income) FROM survey WHERE region = 3', expected: 55 },
  { id: 'k-known-income', kind: 'placeholder', question: 'How many respondents reported their income?', needs: [MISSING_INCOME], knowingSql: 'SELECT count(*) FROM survey WHERE income <> -9', naiveSql: 'SELECT count(income) FROM survey', expected: 9 },
  { id: 'k-revenue', kind: 'rule', question: 'What is our total revenue?', needs: ['Revenue excludes refunds', 'unit: cents'], knowingSql: `SELECT sum(${REVENUE}) FROM orders WHERE status <> 'R'`, naiveSql: 'SELECT sum(amount_cents) FROM orders', expected: 195 },
  { id: 'k-completed', kind: 'codes', question: 'How many orders were completed?', needs: ['C = completed'], knowingSql: "SELECT count(*) FROM orders WHERE status = 'C'", naiveSql: 'SELECT count(*) FROM orders', expected: 6 },
  { id: 'k-business-orders', kind: 'join', question: 'How many orders did business customers place?', needs: ['orders.cust_no = customers.customer_id', 'B = business'], knowingSql: "SELECT count(*) FROM orders o JOIN customers c ON o.cust_no = c.customer_id WHERE c.segment = 'B'", naiveSql: "SELECT count(*) FROM orders o JOIN customers c ON o.order_id = c.customer_id WHERE c.segment = 'business'", expected: 4 },
  { id: 'k-fy-revenue', kind: 'rule', question: 'What was the revenue in fiscal year 2025?', needs: ['Fiscal year N runs from 1 July', 'Revenue excludes refunds', 'unit: cents'], knowingSql: `SELECT sum(${REVENUE}) FROM orders WHERE status <> 'R' AND CAST(order_date AS DATE) BETWEEN DATE '2024-07-01' AND DATE '2025-06-30'`, naiveSql: "SELECT sum(amount_cents) FROM orders WHERE year(CAST(order_date AS DATE)) = 2025", expected: 182.5 },
  { id: 'k-private-aov', kind: 'join', question: 'What is the average order value of private customers?', needs: ['orders.cust_no = customers.customer_id', 'P = private', 'unit: cents', 'Revenue excludes refunds'], knowingSql: `SELECT avg(${REVENUE}) FROM orders o JOIN customers c ON o.cust_no = c.customer_id WHERE c.segment = 'P' AND o.status <> 'R'`, naiveSql: "SELECT avg(amount_cents) FROM orders o JOIN customers c ON o.order_id = c.customer_id WHERE c.segment = 'private'", expected: 19.1667 },
];

/** Whether a result's first cell is the item's answer (numbers to 0.05% or 0.001). */
export function knowledgeAnswerMatches(item: KnowledgeItem, cell: unknown): boolean {
  if (typeof item.expected === 'string') return String(cell) === item.expected;
  const n = typeof cell === 'bigint' ? Number(cell) : typeof cell === 'string' ? Number(cell) : cell;
  return typeof n === 'number' && Number.isFinite(n) && Math.abs(n - item.expected) <= Math.max(0.001, Math.abs(item.expected) * 0.0005);
}

/**
 * Ambiguous on purpose (issue 24): neither the data nor the dictionary settles what is meant, so
 * the right move is one clarifying question with choices; once the user's choice is saved as a
 * rule ("<question> → <choice>"), the same question is answered without asking.
 */
export interface AmbiguousItem {
  id: string;
  question: string;
  clarify: { question: string; choices: string[] };
  /** The choice the user makes, and the SQL that answers the question with it. */
  choice: string;
  sql: string;
  expected: number;
}

export const AMBIGUOUS_ITEMS: AmbiguousItem[] = [
  {
    id: 'k-ambiguous-year',
    question: 'What was the revenue in 2025?',
    clarify: { question: 'Which 2025 do you mean?', choices: ['Calendar year 2025', 'Fiscal year 2025 (July 2024 to June 2025)'] },
    choice: 'Calendar year 2025',
    sql: `SELECT sum(${REVENUE}) FROM orders WHERE status <> 'R' AND year(CAST(order_date AS DATE)) = 2025`,
    expected: 57.5,
  },
  {
    id: 'k-ambiguous-typical',
    question: 'What is the typical income?',
    clarify: { question: 'Which typical income do you mean?', choices: ['The mean', 'The median'] },
    choice: 'The median',
    sql: 'SELECT median(income) FROM survey WHERE income <> -9',
    expected: 55,
  },
];

/** The rule "Remember my choice" saves for an item's clarifying question. */
export const choiceRule = (item: AmbiguousItem): string => `${item.clarify.question} → ${item.choice}`;
