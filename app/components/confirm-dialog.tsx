import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger, DialogCancel } from "~/components/ui/dialog";

export interface ConfirmDialogProps {
  /** The element that opens the dialog, e.g. a delete icon button; it must accept a ref (Button does). */
  trigger: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  /** Hidden inputs posted on confirm, e.g. `{ intent: "delete", id: alert.id }`. */
  fields: Record<string, string | number>;
  /** Route to post to; defaults to the current route's action. */
  action?: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Styles the confirm button as destructive (delete, deactivate…). */
  destructive?: boolean;
}

/**
 * Asks before a consequential action and posts a Remix `<Form method="post">` with `fields`
 * when confirmed. The confirm button shows a spinner while the submission runs and the dialog
 * closes once it has finished (the action usually redirects with a toast).
 *
 *   <ConfirmDialog
 *     trigger={<Button variant="ghost" size="icon-sm" aria-label={`Delete ${alert.name}`}><TrashIcon /></Button>}
 *     title="Delete alert?" description={<>“{alert.name}” will be removed.</>}
 *     fields={{ intent: "delete", id: alert.id }} confirmLabel="Delete" destructive />
 */
export function ConfirmDialog({ trigger, title, description, fields, action, confirmLabel = "Confirm", cancelLabel = "Cancel", destructive = false }: ConfirmDialogProps) {
  const [open, setOpen] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const navigation = useNavigation();
  const busy = submitted && navigation.state !== "idle";

  useEffect(() => {
    if (submitted && navigation.state === "idle") {
      setSubmitted(false);
      setOpen(false);
    }
  }, [submitted, navigation.state]);

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!busy) setOpen(next);
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent role="alertdialog" closeLabel={cancelLabel}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          {description && <DialogDescription>{description}</DialogDescription>}
        </DialogHeader>
        <Form method="post" action={action} onSubmit={() => setSubmitted(true)}>
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={String(value)} />
          ))}
          <DialogFooter>
            <DialogCancel disabled={busy}>{cancelLabel}</DialogCancel>
            <Button type="submit" variant={destructive ? "destructive" : "default"} loading={busy}>
              {confirmLabel}
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
