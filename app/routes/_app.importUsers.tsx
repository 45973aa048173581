import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/auth/form-parts";
import { ImportCounts, importMessage, ImportPreviewTable } from "~/components/users/import-preview";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { LinkButton } from "~/components/ui/link-button";
import { PageHeader } from "~/components/ui/page-header";
import { EXPORT_CSV_COLUMNS, IMPORT_MAX_BYTES, importFormSchema, USER_IMPORT_MSG, type ImportCounts as Counts, type ImportRow } from "~/schemas/user-import";
import { commitUserImport, previewUserImport } from "~/services/user-import.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction, type FormReply } from "~/utils/form-action.server";
import { can } from "~/utils/permissions";

export const meta: MetaFunction = () => [{ title: "Import Users" }];

/** Rows the preview lists (refused ones first); the counts cover the whole file. */
const PREVIEW_SHOWN = 300;

/** Importing needs the users module with the add or the modify right (each row is checked for the one it needs). */
async function requireImporter(request: Request, context: LoaderFunctionArgs["context"]) {
  const auth = await requireModule(request, context, "users");
  if (!can(auth.permissions, "users", "add") && !can(auth.permissions, "users", "modify")) throw new Response("Forbidden", { status: 403 });
  return auth;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireImporter(request, context);
  return null;
}

type Preview = { counts: Counts; chunks: number; rows: ImportRow[]; total: number };
type Part = { chunk: number; chunks: number; counts: Counts };
type Answer = Partial<FormReply> & { preview?: Preview; part?: Part };

/** /importUsers: a preview of the file (writes nothing), then one part of the commit per post (decision 0089). */
export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireImporter(request, context);
  const db = getDb(context);
  return formAction(
    request,
    importFormSchema,
    async (v) => {
      if (v.intent === "commit") return data({ part: await commitUserImport(db, auth, context.core, v.csv, v.chunk, nowMs()) });
      const p = await previewUserImport(db, auth, v.csv);
      const order = { refuse: 0, change: 1, create: 2, unchanged: 3 } as const;
      const rows = [...p.rows].sort((a, b) => order[a.outcome] - order[b.outcome] || a.line - b.line);
      return data({ preview: { counts: p.counts, chunks: p.chunks, rows: rows.slice(0, PREVIEW_SHOWN), total: rows.length } });
    },
    // The file is never echoed back.
    { hideFields: ["csv"] },
  );
}

const NO_COUNTS: Counts = { create: 0, change: 0, unchanged: 0, refuse: 0 };
const add = (a: Counts, b: Counts): Counts => ({ create: a.create + b.create, change: a.change + b.change, unchanged: a.unchanged + b.unchanged, refuse: a.refuse + b.refuse });

/** A refusal's text: the server's message (already in the reader's language), else the first field error. */
function refusalOf(t: Parameters<typeof importMessage>[0], answer: Answer | undefined): string | null {
  if (!answer || answer.preview || answer.part) return null;
  if (answer.message) return answer.message;
  const first = Object.values(answer.result?.error ?? {}).flat()[0];
  return first ? importMessage(t, first) : null;
}

export default function ImportUsersPage() {
  const { t } = useTranslation(["userImport", "users"]);
  const previewer = useFetcher<Answer>({ key: "import-preview" });
  const committer = useFetcher<Answer>({ key: "import-commit" });
  const [csv, setCsv] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [run, setRun] = useState<{ parts: number; done: number; totals: Counts; stopped: string | null } | null>(null);
  const handled = useRef<Answer | undefined>(undefined);
  const preview = run ? undefined : previewer.data?.preview;

  const post = (fetcher: typeof previewer, fields: Record<string, string>) => {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    // Multipart: the file travels as it is, without the URL encoding that would triple its size.
    fetcher.submit(body, { method: "post", encType: "multipart/form-data" });
  };

  // Each part answered starts the next; a refusal stops the run where it is (the parts before it are saved).
  useEffect(() => {
    const answer = committer.data;
    if (!run || committer.state !== "idle" || !answer || handled.current === answer) return;
    handled.current = answer;
    if (!answer.part) return setRun({ ...run, stopped: refusalOf(t, answer) ?? "" });
    const next = { ...run, done: answer.part.chunk + 1, totals: add(run.totals, answer.part.counts) };
    setRun(next);
    if (next.done < next.parts && csv) post(committer, { intent: "commit", csv, chunk: String(next.done) });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once per answer
  }, [committer.data, committer.state]);

  const choose = async (file: File | undefined) => {
    setRun(null);
    setFileError(null);
    setCsv(null);
    if (!file) return;
    if (file.size > IMPORT_MAX_BYTES) return setFileError(importMessage(t, USER_IMPORT_MSG.fileTooLarge));
    setCsv(await file.text());
  };
  const start = () => {
    if (!csv || !preview) return;
    setRun({ parts: preview.chunks, done: 0, totals: NO_COUNTS, stopped: null });
    post(committer, { intent: "commit", csv, chunk: "0" });
  };

  const previewError = refusalOf(t, previewer.data);
  const writes = preview ? preview.counts.create + preview.counts.change : 0;
  const finished = run && run.done === run.parts;
  return (
    <div className="grid max-w-5xl gap-5">
      <PageHeader
        title={t("title")}
        description={t("description")}
        back={{ to: "/users", label: t("users:title") }}
        actions={
          <LinkButton variant="outline" to="/resources/users-csv?template=1" reloadDocument download="users_template.csv">
            {t("template")}
          </LinkButton>
        }
      />
      <Card>
        <CardHeader>
          <CardTitle>{t("columnsTitle")}</CardTitle>
          <CardDescription>{t("columnsHint")}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
            {EXPORT_CSV_COLUMNS.map((c) => (
              <div key={c} className="contents">
                <dt className="font-mono">{c}</dt>
                <dd className="mb-1 text-muted-foreground sm:mb-0">{t(`column.${c}`)}</dd>
              </div>
            ))}
          </dl>
          <p className="text-sm text-muted-foreground">{t("notDone")}</p>
        </CardContent>
      </Card>
      <div className="grid gap-3">
        <Field label={t("file")} hint={t("fileHint")} error={fileError}>
          <Input type="file" accept=".csv,text/csv,text/plain" onChange={(e) => choose(e.currentTarget.files?.[0])} disabled={!!run && !finished && !run.stopped} />
        </Field>
        <div>
          <Button
            type="button"
            onClick={() => csv && post(previewer, { intent: "preview", csv })}
            disabled={!csv || previewer.state !== "idle" || (!!run && !finished && !run.stopped)}
          >
            {previewer.state !== "idle" ? t("reading") : t("preview")}
          </Button>
        </div>
        <FormAlert message={previewError} />
      </div>
      {preview && (
        <section aria-labelledby="import-preview-title" className="grid gap-3">
          <h2 id="import-preview-title" className="text-lg font-semibold">
            {t("previewTitle")}
          </h2>
          <ImportCounts counts={preview.counts} />
          {preview.rows.length > 0 && <ImportPreviewTable rows={preview.rows} total={preview.total} />}
          {writes > 0 ? (
            <div>
              <Button type="button" onClick={start}>
                {t("confirm", { count: writes })}
              </Button>
            </div>
          ) : (
            <Alert>{t("nothingToImport")}</Alert>
          )}
        </section>
      )}
      {run && (
        <section aria-live="polite" className="grid gap-3" data-testid="import-run">
          <progress className="h-2 w-full accent-primary" max={run.parts} value={run.done} aria-label={t("progressLabel")} />
          {!finished && !run.stopped && <p className="text-sm text-muted-foreground">{t("importing", { part: Math.min(run.done + 1, run.parts), parts: run.parts })}</p>}
          {run.stopped !== null && <FormAlert message={[run.stopped, t("stopped", { done: run.done, parts: run.parts })].filter(Boolean).join(" ")} />}
          {finished && (
            <>
              <Alert>{t("done", run.totals)}</Alert>
              <div>
                <LinkButton to="/users">{t("seeUsers")}</LinkButton>
              </div>
            </>
          )}
        </section>
      )}
    </div>
  );
}
