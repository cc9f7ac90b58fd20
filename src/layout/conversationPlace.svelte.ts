/**
 * The open conversation is part of the place in the URL: opening one is a step back can return
 * from, and back/forward, a copied link or a reload bring the conversation the place names into
 * the chat. Set up from a component (it registers an effect).
 */
import { untrack } from 'svelte';
import type { PlaceHistory } from './PlaceHistory.svelte';
import type { Place } from './place';

/** The part of the chat's client this needs. */
export interface ConversationHolder {
  readonly threadId: string | null;
  readonly running: boolean;
  openThread(threadId: string): Promise<void>;
  newConversation(): void;
}

export const MISSING_CONVERSATION = 'That conversation is not saved in this browser, so a new one is open.';

/**
 * Keeps the place and the chat's conversation together. `notice` hears what the user should be
 * told (a link to a conversation this browser does not have). Returns `follow`, which brings the
 * place's conversation into the chat.
 */
export function syncConversationPlace(places: PlaceHistory, chat: ConversationHolder, notice: (text: string) => void): (place: Place) => Promise<void> {
  let lastThread: string | null = null;
  $effect(() => {
    const current = chat.threadId;
    if (current === lastThread) return;
    const was = lastThread;
    lastThread = current;
    if (untrack(() => places.place.conversation) === current) return;
    // A new conversation getting its id on its first question is not a step of its own.
    places.go({ conversation: current }, was === null && current !== null ? 'replace' : 'push');
  });

  return async function follow(place: Place): Promise<void> {
    const wanted = place.conversation;
    if (wanted === chat.threadId) return;
    if (wanted === null) {
      chat.newConversation();
    } else {
      await chat.openThread(wanted);
      if (chat.threadId !== wanted && !chat.running) {
        notice(MISSING_CONVERSATION);
        chat.newConversation();
      }
    }
    // A run in progress keeps its conversation open; the URL says so again.
    if (chat.threadId !== places.place.conversation) places.go({ conversation: chat.threadId }, 'replace');
  };
}
