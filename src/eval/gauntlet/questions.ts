/**
 * The gauntlet: closed-form questions over the bundled samples (`penguins`, `seattle_weather`,
 * `cars`, the tables "Try a sample" creates). No expected answer is typed here: each question
 * names the SQL that computes it, `expected.json` holds what native DuckDB returned for that SQL,
 * and `questions.test.ts` recomputes every one and fails when one drifts
 * (`npm run gauntlet:expected` rewrites the file after a deliberate change).
 *
 * The SQL must give the same answer on the app's tables and on native DuckDB's `read_json` /
 * `read_csv` views, so dates are cast explicitly (`cars.Year` is text in the app, DATE natively).
 */
import type { ExampleCategory } from '../../../shared/exampleCategories';

export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const SAMPLE_TABLES = ['penguins', 'seattle_weather', 'cars'] as const;
export type SampleTable = (typeof SAMPLE_TABLES)[number];

/**
 * How the expected answer is read off the SQL's result:
 * - `number`: the first row; every column is an accepted value (e.g. mean and median for an
 *   ambiguous "typical"), compared with `tolerance`.
 * - `set`: every row must be named in the answer; the row's columns are accepted spellings.
 * - `yesno`: one row with `answer` (boolean) and `statistic` (number, compared with `tolerance`).
 * - `table`: rows of (key, value); each key must be reported with its value.
 * - `chart`: the answer carries a figure of the question's `chart.type`; with `chart.values` the
 *   result's rows are (category, value) and those values must be plotted (a bar of means fails a
 *   question about counts), else the result's column names must be plotted.
 */
export type AnswerKind = 'number' | 'set' | 'yesno' | 'table' | 'chart';

export interface Tolerance {
  /** Absolute difference allowed. */
  abs?: number;
  /** Difference allowed relative to the expected value. */
  rel?: number;
}

export interface GauntletQuestion {
  id: string;
  category: ExampleCategory;
  difficulty: Difficulty;
  tables: SampleTable[];
  question: string;
  kind: AnswerKind;
  sql: string;
  tolerance?: Tolerance;
  /** The natural route is Python (a test, a regression); SQL may still get there. */
  python?: boolean;
  /** Ambiguous on purpose: correct only with a caveat that names the assumption. */
  needsCaveat?: boolean;
  /** Chart questions: the chart type the figure must draw, and whether the SQL gives its values. */
  chart?: { type: 'bar' | 'line' | 'scatter' | 'histogram' | 'box' | 'pie' | 'heatmap'; values?: boolean };
}

/** Reported figures are usually rounded to two decimals or three significant digits. */
export const DEFAULT_TOLERANCE: Tolerance = { abs: 0.01, rel: 0.005 };

const P = 'penguins';
const W = 'seattle_weather';
const C = 'cars';
const MASS = '"Body Mass (g)"';
const FLIPPER = '"Flipper Length (mm)"';

export const QUESTIONS: readonly GauntletQuestion[] = [
  // ------------------------------------------------------------------------------ description
  { id: 'desc_penguin_count', category: 'description', difficulty: 'easy', tables: [P], kind: 'number',
    question: 'How many penguins (rows) are in the penguins dataset?',
    sql: `SELECT count(*) FROM ${P}` },
  { id: 'desc_mean_mass', category: 'description', difficulty: 'easy', tables: [P], kind: 'number',
    question: 'What is the average body mass of all penguins, in grams?',
    sql: `SELECT avg(${MASS}) FROM ${P}`, tolerance: { abs: 0.5 } },
  { id: 'desc_islands', category: 'description', difficulty: 'easy', tables: [P], kind: 'set',
    question: 'On which islands were the penguins observed? List them.',
    sql: `SELECT DISTINCT "Island" FROM ${P} ORDER BY 1` },
  { id: 'desc_median_flipper_gentoo', category: 'description', difficulty: 'medium', tables: [P], kind: 'number',
    question: 'What is the median flipper length of Gentoo penguins, in mm?',
    sql: `SELECT median(${FLIPPER}) FROM ${P} WHERE "Species" = 'Gentoo'` },
  { id: 'desc_max_temp', category: 'description', difficulty: 'easy', tables: [W], kind: 'number',
    question: 'What is the highest daily maximum temperature (temp_max) recorded in the Seattle weather data?',
    sql: `SELECT max(temp_max) FROM ${W}` },
  { id: 'desc_dry_days', category: 'description', difficulty: 'medium', tables: [W], kind: 'number',
    question: 'On how many days in the Seattle weather data was there no precipitation at all?',
    sql: `SELECT count(*) FROM ${W} WHERE precipitation = 0` },
  { id: 'desc_hp_sd', category: 'description', difficulty: 'hard', tables: [C], kind: 'number',
    question: 'What is the sample standard deviation of Horsepower across the cars, ignoring missing values?',
    sql: `SELECT stddev_samp("Horsepower") FROM ${C}` },
  { id: 'desc_weather_types', category: 'description', difficulty: 'easy', tables: [W], kind: 'set',
    question: 'Which kinds of weather appear in the weather column of seattle_weather?',
    sql: `SELECT DISTINCT weather FROM ${W} ORDER BY 1` },
  { id: 'desc_missing_sex', category: 'description', difficulty: 'medium', tables: [P], kind: 'number',
    question: 'How many penguins have no recorded sex?',
    // One row records the sex as "." — counting it as missing is as right as not.
    sql: `SELECT count(*) FILTER (WHERE "Sex" IS NULL), count(*) FILTER (WHERE "Sex" IS NULL OR "Sex" = '.') FROM ${P}` },
  { id: 'amb_typical_weight', category: 'description', difficulty: 'medium', tables: [C], kind: 'number', needsCaveat: true,
    question: 'What is the typical weight of a car in the cars data?',
    sql: `SELECT avg("Weight_in_lbs") AS mean, median("Weight_in_lbs") AS median FROM ${C}`, tolerance: { abs: 0.5, rel: 0.002 } },

  // ------------------------------------------------------------------------------- comparison
  { id: 'cmp_heaviest_species', category: 'comparison', difficulty: 'easy', tables: [P], kind: 'set',
    question: 'Which penguin species has the highest average body mass?',
    sql: `SELECT "Species" FROM ${P} GROUP BY 1 ORDER BY avg(${MASS}) DESC LIMIT 1` },
  { id: 'cmp_mass_by_sex', category: 'comparison', difficulty: 'medium', tables: [P], kind: 'table',
    question: 'What is the average body mass of male and of female penguins (leave out those with no recorded sex)?',
    sql: `SELECT "Sex", avg(${MASS}) FROM ${P} WHERE "Sex" IN ('MALE', 'FEMALE') GROUP BY 1 ORDER BY 1`, tolerance: { abs: 0.5 } },
  { id: 'cmp_ttest_adelie_chinstrap', category: 'comparison', difficulty: 'hard', tables: [P], kind: 'yesno', python: true,
    question: "Is the body mass of Adelie penguins significantly different from Chinstrap penguins at the 5% level? Answer yes or no, using Welch's t-test, and report the t statistic (Adelie minus Chinstrap).",
    sql: `WITH a AS (SELECT avg(${MASS}) m, var_samp(${MASS}) v, count(${MASS}) n FROM ${P} WHERE "Species" = 'Adelie'),
          c AS (SELECT avg(${MASS}) m, var_samp(${MASS}) v, count(${MASS}) n FROM ${P} WHERE "Species" = 'Chinstrap'),
          t AS (SELECT (a.m - c.m) / sqrt(a.v / a.n + c.v / c.n) AS t FROM a, c)
          SELECT abs(t) > 1.97 AS answer, t AS statistic FROM t`, tolerance: { abs: 0.02 } },
  { id: 'cmp_ttest_sun_rain', category: 'comparison', difficulty: 'hard', tables: [W], kind: 'yesno', python: true,
    question: "Are maximum temperatures on 'sun' days significantly different from 'rain' days at the 5% level? Answer yes or no, using Welch's t-test, and report the t statistic (sun minus rain).",
    sql: `WITH s AS (SELECT avg(temp_max) m, var_samp(temp_max) v, count(*) n FROM ${W} WHERE weather = 'sun'),
          r AS (SELECT avg(temp_max) m, var_samp(temp_max) v, count(*) n FROM ${W} WHERE weather = 'rain'),
          t AS (SELECT (s.m - r.m) / sqrt(s.v / s.n + r.v / r.n) AS t FROM s, r)
          SELECT abs(t) > 1.96 AS answer, t AS statistic FROM t`, tolerance: { abs: 0.05 } },
  { id: 'cmp_best_mpg_origin', category: 'comparison', difficulty: 'medium', tables: [C], kind: 'set',
    question: 'Which origin has the highest average Miles_per_Gallon?',
    sql: `SELECT "Origin" FROM ${C} GROUP BY 1 ORDER BY avg("Miles_per_Gallon") DESC LIMIT 1` },
  { id: 'cmp_temp_by_weather', category: 'comparison', difficulty: 'medium', tables: [W], kind: 'table',
    question: 'What is the average temp_max for each kind of weather?',
    sql: `SELECT weather, avg(temp_max) FROM ${W} GROUP BY 1 ORDER BY 1`, tolerance: { abs: 0.01, rel: 0.005 } },
  { id: 'cmp_hp_usa_japan', category: 'comparison', difficulty: 'easy', tables: [C], kind: 'yesno',
    question: 'Do cars from the USA have a higher average Horsepower than cars from Japan? Answer yes or no and give the difference in average horsepower (USA minus Japan).',
    sql: `SELECT avg("Horsepower") FILTER (WHERE "Origin" = 'USA') - avg("Horsepower") FILTER (WHERE "Origin" = 'Japan') AS statistic,
          statistic > 0 AS answer FROM ${C}`, tolerance: { abs: 0.05, rel: 0.005 } },
  { id: 'amb_biggest_penguins', category: 'comparison', difficulty: 'easy', tables: [P], kind: 'set', needsCaveat: true,
    question: 'Which penguins are the biggest?',
    sql: `SELECT "Species" FROM ${P} GROUP BY 1 ORDER BY avg(${MASS}) DESC LIMIT 1` },

  // ----------------------------------------------------------------------------- relationship
  { id: 'rel_corr_flipper_mass', category: 'relationship', difficulty: 'medium', tables: [P], kind: 'number',
    question: 'What is the Pearson correlation between flipper length and body mass of the penguins?',
    sql: `SELECT corr(${FLIPPER}, ${MASS}) FROM ${P}`, tolerance: { abs: 0.005 } },
  { id: 'rel_corr_weight_mpg', category: 'relationship', difficulty: 'medium', tables: [C], kind: 'number',
    question: 'What is the Pearson correlation between Weight_in_lbs and Miles_per_Gallon?',
    sql: `SELECT corr("Weight_in_lbs", "Miles_per_Gallon") FROM ${C}`, tolerance: { abs: 0.005 } },
  { id: 'rel_slope_mass_flipper', category: 'relationship', difficulty: 'hard', tables: [P], kind: 'number', python: true,
    question: 'Fit a linear regression of body mass (g) on flipper length (mm). What is the slope, in grams per mm?',
    sql: `SELECT regr_slope(${MASS}, ${FLIPPER}) FROM ${P}`, tolerance: { abs: 0.05, rel: 0.002 } },
  { id: 'rel_slope_mpg_weight', category: 'relationship', difficulty: 'hard', tables: [C], kind: 'number', python: true,
    question: 'Fit a linear regression of Miles_per_Gallon on Weight_in_lbs. By how many MPG does the fitted value change per 1000 lbs of weight?',
    sql: `SELECT 1000 * regr_slope("Miles_per_Gallon", "Weight_in_lbs") FROM ${C}`, tolerance: { abs: 0.01, rel: 0.005 } },
  { id: 'rel_corr_temps', category: 'relationship', difficulty: 'easy', tables: [W], kind: 'number',
    question: 'What is the correlation between temp_max and temp_min in the Seattle weather data?',
    sql: `SELECT corr(temp_max, temp_min) FROM ${W}`, tolerance: { abs: 0.005 } },
  { id: 'rel_r2_mass_flipper', category: 'relationship', difficulty: 'hard', tables: [P], kind: 'number', python: true,
    question: 'What share of the variance in penguin body mass does flipper length explain in a simple linear regression (R²)?',
    sql: `SELECT regr_r2(${MASS}, ${FLIPPER}) FROM ${P}`, tolerance: { abs: 0.005 } },
  { id: 'rel_hp_accel_positive', category: 'relationship', difficulty: 'medium', tables: [C], kind: 'yesno',
    question: 'Is there a positive correlation between Horsepower and Acceleration? Answer yes or no and give the Pearson correlation.',
    sql: `SELECT corr("Horsepower", "Acceleration") AS statistic, statistic > 0 AS answer FROM ${C}`, tolerance: { abs: 0.005 } },

  // ---------------------------------------------------------------------- patterns over time
  { id: 'pat_wettest_year', category: 'pattern', difficulty: 'easy', tables: [W], kind: 'set',
    question: 'Which year had the most total precipitation in the Seattle weather data?',
    sql: `SELECT CAST(year(CAST("date" AS DATE)) AS VARCHAR) FROM ${W} GROUP BY 1 ORDER BY sum(precipitation) DESC LIMIT 1` },
  { id: 'pat_precip_per_year', category: 'pattern', difficulty: 'medium', tables: [W], kind: 'table',
    question: 'What is the total precipitation in each year of the Seattle weather data?',
    sql: `SELECT CAST(year(CAST("date" AS DATE)) AS VARCHAR) AS y, sum(precipitation) FROM ${W} GROUP BY 1 ORDER BY 1`, tolerance: { abs: 0.5, rel: 0.002 } },
  { id: 'pat_rain_days_2015', category: 'pattern', difficulty: 'easy', tables: [W], kind: 'number',
    question: "How many days in 2015 have the weather 'rain' in the Seattle weather data?",
    sql: `SELECT count(*) FROM ${W} WHERE weather = 'rain' AND year(CAST("date" AS DATE)) = 2015` },
  { id: 'pat_hottest_month', category: 'pattern', difficulty: 'medium', tables: [W], kind: 'set',
    question: 'Which calendar month has the highest average temp_max across all years?',
    sql: `SELECT monthname(make_date(2000, m, 1)) AS name, CAST(m AS VARCHAR) AS num FROM (
            SELECT month(CAST("date" AS DATE)) AS m FROM ${W} GROUP BY 1 ORDER BY avg(temp_max) DESC LIMIT 1)` },
  { id: 'pat_mpg_by_year', category: 'pattern', difficulty: 'medium', tables: [C], kind: 'table',
    question: 'What is the average Miles_per_Gallon for each model year in the cars data?',
    sql: `SELECT CAST(year(CAST("Year" AS DATE)) AS VARCHAR) AS y, avg("Miles_per_Gallon") FROM ${C} GROUP BY 1 ORDER BY 1`, tolerance: { abs: 0.01, rel: 0.005 } },
  { id: 'pat_temp_change_2012_2015', category: 'pattern', difficulty: 'hard', tables: [W], kind: 'number',
    question: 'By how much did the average temp_max change from 2012 to 2015 (2015 minus 2012)?',
    sql: `SELECT avg(temp_max) FILTER (WHERE year(CAST("date" AS DATE)) = 2015) - avg(temp_max) FILTER (WHERE year(CAST("date" AS DATE)) = 2012) FROM ${W}`,
    tolerance: { abs: 0.01, rel: 0.01 } },
  { id: 'pat_first_year_mpg_30', category: 'pattern', difficulty: 'hard', tables: [C], kind: 'set',
    question: 'In which model year did the average Miles_per_Gallon of the cars first exceed 30?',
    sql: `SELECT CAST(min(y) AS VARCHAR) FROM (SELECT year(CAST("Year" AS DATE)) AS y FROM ${C} GROUP BY 1 HAVING avg("Miles_per_Gallon") > 30)` },
  { id: 'amb_warmer', category: 'pattern', difficulty: 'hard', tables: [W], kind: 'yesno', needsCaveat: true,
    question: 'Has Seattle got warmer over the period of the weather data? Answer yes or no and give the change in average temp_max between the first and the last year.',
    sql: `SELECT avg(temp_max) FILTER (WHERE year(CAST("date" AS DATE)) = 2015) - avg(temp_max) FILTER (WHERE year(CAST("date" AS DATE)) = 2012) AS statistic,
          statistic > 0 AS answer FROM ${W}`, tolerance: { abs: 0.01, rel: 0.01 } },

  // --------------------------------------------------------------------------- visualisation
  { id: 'viz_species_counts', category: 'visualization', difficulty: 'easy', tables: [P], kind: 'chart', chart: { type: 'bar', values: true },
    question: 'Draw a bar chart of the number of penguins per species.',
    sql: `SELECT "Species", count(*) AS penguins FROM ${P} GROUP BY 1 ORDER BY 1` },
  { id: 'viz_temp_over_time', category: 'visualization', difficulty: 'medium', tables: [W], kind: 'chart', chart: { type: 'line' },
    question: 'Plot temp_max over time as a line chart.',
    sql: `SELECT temp_max FROM ${W} LIMIT 0` },
  { id: 'viz_hp_mpg', category: 'visualization', difficulty: 'medium', tables: [C], kind: 'chart', chart: { type: 'scatter' },
    question: 'Make a scatter plot of Horsepower against Miles_per_Gallon.',
    sql: `SELECT "Horsepower", "Miles_per_Gallon" FROM ${C} LIMIT 0` },
  { id: 'viz_mass_hist', category: 'visualization', difficulty: 'easy', tables: [P], kind: 'chart', chart: { type: 'histogram' },
    question: 'Show a histogram of penguin body mass.',
    sql: `SELECT ${MASS} FROM ${P} LIMIT 0` },
  { id: 'viz_flipper_box', category: 'visualization', difficulty: 'hard', tables: [P], kind: 'chart', chart: { type: 'box' },
    question: 'Show the distribution of flipper length for each species as a box plot.',
    sql: `SELECT ${FLIPPER}, "Species" FROM ${P} LIMIT 0` },
  { id: 'viz_temp_scatter', category: 'visualization', difficulty: 'easy', tables: [W], kind: 'chart', chart: { type: 'scatter' },
    question: 'Make a scatter plot of temp_min against temp_max.',
    sql: `SELECT temp_min, temp_max FROM ${W} LIMIT 0` },

  // -------------------------------------------------------------------------- data operations
  { id: 'op_above_species_mean', category: 'data_operation', difficulty: 'medium', tables: [P], kind: 'number',
    question: "How many penguins weigh more than the average body mass of their own species?",
    sql: `SELECT count(*) FROM ${P} p JOIN (SELECT "Species", avg(${MASS}) AS m FROM ${P} GROUP BY 1) s USING ("Species") WHERE p.${MASS} > s.m` },
  { id: 'op_snow_2014_pivot', category: 'data_operation', difficulty: 'medium', tables: [W], kind: 'number',
    question: "Reshape seattle_weather into one row per year with one column per weather type counting the days. How many 'snow' days does 2014 have?",
    sql: `SELECT count(*) FROM ${W} WHERE weather = 'snow' AND year(CAST("date" AS DATE)) = 2014` },
  { id: 'op_missing_hp', category: 'data_operation', difficulty: 'easy', tables: [C], kind: 'number',
    question: 'How many cars have a missing Horsepower value?',
    sql: `SELECT count(*) FROM ${C} WHERE "Horsepower" IS NULL` },
  { id: 'op_distinct_names', category: 'data_operation', difficulty: 'medium', tables: [C], kind: 'number',
    question: 'After removing duplicate names, how many distinct car names are there?',
    sql: `SELECT count(DISTINCT "Name") FROM ${C}` },
  { id: 'op_above_origin_mpg', category: 'data_operation', difficulty: 'hard', tables: [C], kind: 'number',
    question: 'Join each car to the average Miles_per_Gallon of its origin. How many cars have a higher MPG than their origin’s average?',
    sql: `SELECT count(*) FROM ${C} c JOIN (SELECT "Origin", avg("Miles_per_Gallon") AS m FROM ${C} GROUP BY 1) o USING ("Origin") WHERE c."Miles_per_Gallon" > o.m` },
  { id: 'op_complete_rows', category: 'data_operation', difficulty: 'medium', tables: [P], kind: 'number',
    question: 'If you drop every penguin row that has a missing value in any column, how many rows remain?',
    sql: `SELECT count(*) FROM ${P} WHERE COLUMNS(*) IS NOT NULL` },
  { id: 'op_unpivot_measures', category: 'data_operation', difficulty: 'hard', tables: [P], kind: 'number',
    question: 'Unpivot the four penguin measurements (beak length, beak depth, flipper length, body mass) into long format (species, measure, value) and drop missing values. How many rows does the long table have?',
    sql: `SELECT count(*) FROM (UNPIVOT ${P} ON "Beak Length (mm)", "Beak Depth (mm)", ${FLIPPER}, ${MASS} INTO NAME measure VALUE value)` },
];
