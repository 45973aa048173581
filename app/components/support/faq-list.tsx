import { useTranslation } from "react-i18next";
import { EmptyState } from "~/components/ui/empty-state";
import type { FaqRow } from "~/services/faqs.server";

/** Questions that open to their answers (native disclosure: keyboard and screen readers work as is). */
export function FaqList({ faqs }: { faqs: FaqRow[] }) {
  const { t } = useTranslation("support");
  if (faqs.length === 0) return <EmptyState title={t("noFaqs")} />;
  return (
    <ul className="grid gap-2" data-testid="faq-list">
      {faqs.map((f) => (
        <li key={f.id}>
          <details className="group rounded-md border px-4 py-3">
            <summary className="cursor-pointer font-medium marker:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
              {f.question}
            </summary>
            <p className="mt-2 text-sm whitespace-pre-line text-muted-foreground">{f.answer}</p>
          </details>
        </li>
      ))}
    </ul>
  );
}
