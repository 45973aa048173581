import { isRouteErrorResponse, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { buttonVariants } from "~/components/ui/button";
import { cn } from "~/utils/cn";

/** What a route error says: its status, a title and a line in the user's language, and the way home. */
export function ErrorNotice({ error, className }: { error: unknown; className?: string }) {
  const { t } = useTranslation("common");
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const key = status === 403 ? "forbidden" : status === 404 ? "notFound" : "serverError";
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <div className={cn("mx-auto flex max-w-lg flex-col items-center justify-center gap-4 text-center", className)} data-testid={`error-${status}`}>
      <p className="text-6xl font-bold text-primary">{status}</p>
      <h1 className="text-2xl font-semibold">{t(`${key}.title`)}</h1>
      <p className="text-muted-foreground">{t(`${key}.body`)}</p>
      <Link to="/" className={buttonVariants()}>
        {t("backHome")}
      </Link>
    </div>
  );
}
