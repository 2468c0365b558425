/**
 * The dialogs an activity's frame opens in the client: the consent screen (AUTHORIZE), "Leaving
 * Guildhall" (OPEN_EXTERNAL_LINK), the purchase dialog (START_PURCHASE), the invite link
 * (OPEN_INVITE_DIALOG), the share dialog (SHARE_LINK), and the image and moment dialogs
 * (MomentDialogs.tsx).
 *
 * @module
 */
import { scopeDescription } from '@guildhall/protocol';
import { CopyField } from '../../components/CopyField.js';
import { Dialog } from '../../components/Dialog.js';
import type { AllQuestions } from './abilities.js';
import type { LocalAuthorizeInfo } from './api.js';
import type { SdkSku } from './frameCommands.js';
import {
  ImageUploadDialog,
  ShareMomentDialog,
  type ImageQuestion,
  type MomentQuestion,
} from './MomentDialogs.js';

/** A question the frame is waiting on the person for. */
export type Question =
  | { kind: 'consent'; info: LocalAuthorizeInfo; answer: (yes: boolean) => void }
  | { kind: 'link'; url: string; answer: (yes: boolean) => void }
  | { kind: 'purchase'; sku: SdkSku; answer: (yes: boolean) => void }
  | { kind: 'invite'; url: string; answer: (yes: boolean) => void }
  | {
      kind: 'share';
      message: string;
      url: string;
      answer: (how: 'copy' | 'send' | null) => void;
    }
  | ImageQuestion
  | MomentQuestion;

/** The frame's questions, each shown with `show` until answered. */
export function askWith(show: (question: Question | null) => void): AllQuestions {
  const ask = <T,>(make: (answer: (value: T) => void) => Question) =>
    new Promise<T>((resolve) => {
      show(
        make((value) => {
          show(null);
          resolve(value);
        }),
      );
    });
  return {
    consent: (info) => ask<boolean>((answer) => ({ kind: 'consent', info, answer })),
    externalLink: (url) => ask<boolean>((answer) => ({ kind: 'link', url, answer })),
    purchase: (sku) => ask<boolean>((answer) => ({ kind: 'purchase', sku, answer })),
    invite: (url) => {
      void ask<boolean>((answer) => ({ kind: 'invite', url, answer }));
    },
    share: (message, url) =>
      ask<'copy' | 'send' | null>((answer) => ({ kind: 'share', message, url, answer })),
    imageUpload: (upload) => ask<string | null>((answer) => ({ kind: 'image', upload, answer })),
    shareMoment: (mediaUrl, targets, send) =>
      ask<boolean>((answer) => ({ kind: 'moment', mediaUrl, targets, send, answer })),
  };
}

function Actions({
  cancel,
  confirm,
}: {
  cancel: () => void;
  confirm: { label: string; run: () => void };
}) {
  return (
    <div className="dialog-actions">
      <button type="button" onClick={cancel}>
        Cancel
      </button>
      <button type="button" className="primary" onClick={confirm.run}>
        {confirm.label}
      </button>
    </div>
  );
}

function PurchaseDialog({ sku, answer }: { sku: SdkSku; answer: (yes: boolean) => void }) {
  const no = () => {
    answer(false);
  };
  return (
    <Dialog
      title={`Buy ${sku.name}`}
      description="Guildhall takes no payments: this is a test purchase, free of charge."
      onClose={no}
    >
      <Actions
        cancel={no}
        confirm={{
          label: 'Buy',
          run: () => {
            answer(true);
          },
        }}
      />
    </Dialog>
  );
}

function ShareDialog({ question }: { question: Extract<Question, { kind: 'share' }> }) {
  const no = () => {
    question.answer(null);
  };
  return (
    <Dialog title="Share" description={question.message} onClose={no}>
      <CopyField label="Link" value={question.url} />
      <div className="dialog-actions">
        <button type="button" onClick={no}>
          Cancel
        </button>
        <button
          type="button"
          onClick={() => {
            const clipboard = navigator.clipboard as Clipboard | undefined;
            void clipboard?.writeText(question.url).catch(() => undefined);
            question.answer('copy');
          }}
        >
          Copy Link
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => {
            question.answer('send');
          }}
        >
          Send in Channel
        </button>
      </div>
    </Dialog>
  );
}

export function QuestionDialog({ question }: { question: Question }) {
  if (question.kind === 'share') return <ShareDialog question={question} />;
  if (question.kind === 'image') return <ImageUploadDialog question={question} />;
  if (question.kind === 'moment') return <ShareMomentDialog question={question} />;
  const no = () => {
    question.answer(false);
  };
  if (question.kind === 'purchase')
    return <PurchaseDialog sku={question.sku} answer={question.answer} />;
  if (question.kind === 'invite') {
    return (
      <Dialog title="Invite to the activity" onClose={no}>
        <CopyField label="Invite link" value={question.url} hint="The link works for 7 days." />
        <div className="dialog-actions">
          <button type="button" className="primary" onClick={no}>
            Done
          </button>
        </div>
      </Dialog>
    );
  }
  if (question.kind === 'link') {
    return (
      <Dialog
        title="Leaving Guildhall"
        description="The activity wants to open this link in a new tab:"
        onClose={no}
      >
        <p className="external-link">{question.url}</p>
        <div className="dialog-actions">
          <button type="button" onClick={no}>
            Cancel
          </button>
          <button
            type="button"
            className="primary"
            onClick={() => {
              window.open(question.url, '_blank', 'noopener,noreferrer');
              question.answer(true);
            }}
          >
            Visit Site
          </button>
        </div>
      </Dialog>
    );
  }
  const { application, scopes } = question.info;
  return (
    <Dialog
      title={`${application.name} wants to access your account`}
      description="This will allow the developer of the activity to:"
      onClose={no}
    >
      <ul className="consent-scopes" aria-label="Permissions">
        {scopes.map((scope) => (
          <li key={scope}>
            {scopeDescription(scope)} <span className="consent-scope-name">({scope})</span>
          </li>
        ))}
      </ul>
      <div className="dialog-actions">
        <button type="button" onClick={no}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => {
            question.answer(true);
          }}
        >
          Authorize
        </button>
      </div>
    </Dialog>
  );
}
