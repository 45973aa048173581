import { useTranslation } from "react-i18next";

const REASONS = ["idle", "expired"] as const;

/** Why the user is back at sign-in (`?reason=` set by the idle guard or the server's session check); unknown reasons show nothing. */
export function SessionEndedNotice({ reason }: { reason: string | null }) {
  const { t } = useTranslation("auth");
  const known = REASONS.find((r) => r === reason);
  if (!known) return null;
  return (
    <p role="status" data-testid="session-ended" className="rounded-md border border-primary/30 bg-primary/10 px-3 py-2 text-sm text-foreground">
      {t(`sessionEnded.${known}`)}
    </p>
  );
}
