import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { ChevronDownIcon, ChevronUpIcon } from "~/components/ui/icons";
import type { FaqLanguage, FaqRow } from "~/services/faqs.server";

/** Root's FAQ list for one language: edit, move up or down, delete (after confirming). */
export function FaqEditor({ faqs, language, can }: { faqs: FaqRow[]; language: FaqLanguage; can: { add: boolean; modify: boolean; delete: boolean } }) {
  const { t } = useTranslation("support");
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <nav aria-label={t("faqLanguage")} className="flex gap-2">
          {(["en", "es"] as const).map((l) => (
            <Button key={l} asChild size="sm" variant={l === language ? "default" : "outline"}>
              <Link to={`/adminSupport?tab=faqs&faqLanguage=${l}`} aria-current={l === language ? "page" : undefined} preventScrollReset>
                {t(`language.${l}`)}
              </Link>
            </Button>
          ))}
        </nav>
        {can.add && (
          <Button asChild size="sm">
            <Link to={`/addFaq?language=${language}`}>{t("addFaq")}</Link>
          </Button>
        )}
      </div>
      {faqs.length === 0 ? (
        <EmptyState title={t("noFaqs")} />
      ) : (
        <ol className="grid gap-2" data-testid="faq-editor">
          {faqs.map((f, i) => (
            <li key={f.id} className="flex items-start gap-3 rounded-md border px-4 py-3">
              <div className="grid min-w-0 flex-1 gap-1">
                <p className="font-medium break-words">{f.question}</p>
                <p className="line-clamp-2 text-sm text-muted-foreground">{f.answer}</p>
              </div>
              <div className="flex shrink-0 items-center gap-1">
                {can.modify && (
                  <>
                    <Form method="post" preventScrollReset>
                      <input type="hidden" name="intent" value="move" />
                      <input type="hidden" name="id" value={f.id} />
                      <input type="hidden" name="direction" value="up" />
                      <Button type="submit" variant="ghost" size="icon-sm" disabled={i === 0} aria-label={t("moveUp", { question: f.question })}>
                        <ChevronUpIcon className="size-4" />
                      </Button>
                    </Form>
                    <Form method="post" preventScrollReset>
                      <input type="hidden" name="intent" value="move" />
                      <input type="hidden" name="id" value={f.id} />
                      <input type="hidden" name="direction" value="down" />
                      <Button type="submit" variant="ghost" size="icon-sm" disabled={i === faqs.length - 1} aria-label={t("moveDown", { question: f.question })}>
                        <ChevronDownIcon className="size-4" />
                      </Button>
                    </Form>
                    <Button asChild variant="outline" size="sm">
                      <Link to={`/modifyFaq?id=${f.id}`} aria-label={t("editFaq", { question: f.question })}>
                        {t("edit")}
                      </Link>
                    </Button>
                  </>
                )}
                {can.delete && (
                  <ConfirmDialog
                    trigger={
                      <Button variant="ghost" size="sm" aria-label={t("deleteFaq", { question: f.question })}>
                        {t("delete")}
                      </Button>
                    }
                    title={t("deleteFaqTitle")}
                    description={t("deleteFaqDescription", { question: f.question })}
                    fields={{ intent: "delete", id: f.id }}
                    confirmLabel={t("delete")}
                    cancelLabel={t("cancel")}
                    destructive
                  />
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
