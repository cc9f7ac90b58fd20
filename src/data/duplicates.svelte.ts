/**
 * The question asked when files being added are already loaded: load them again under new names,
 * replace the old datasets, or skip them. DuplicateQuestion.svelte shows it; one at a time.
 */

/** What to do with files that are already loaded: load them again under new names, replace, or skip. */
export type DuplicateChoice = 'replace' | 'keep' | 'cancel';

/** Files being added that are already loaded, waiting for the user's choice. */
export interface DuplicateQuestion {
  fileNames: string[];
  /** The datasets each of those files made. */
  datasets: string[];
  answer: (choice: DuplicateChoice) => void;
}

export class DuplicateAsker {
  question = $state.raw<DuplicateQuestion | null>(null);

  /** One question at a time; a newer one answers an older one with `cancel`. */
  ask(fileNames: string[], datasets: string[]): Promise<DuplicateChoice> {
    this.question?.answer('cancel');
    return new Promise((resolve) => {
      const question: DuplicateQuestion = {
        fileNames,
        datasets,
        answer: (choice) => {
          if (this.question === question) this.question = null;
          resolve(choice);
        },
      };
      this.question = question;
    });
  }
}
