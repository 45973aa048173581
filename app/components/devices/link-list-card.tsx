import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { LinkButton } from "~/components/ui/link-button";

/** A titled card of links (key holders, groups) with a message when empty. */
export function LinkListCard({ title, empty, items, testId }: { title: string; empty: string; items: { id: number; label: string; to: string }[]; testId: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {items.length === 0 ? (
          <p className="text-sm text-muted-foreground">{empty}</p>
        ) : (
          <ul className="grid gap-1 text-sm" data-testid={testId}>
            {items.map((i) => (
              <li key={i.id}>
                <LinkButton variant="link" size="inline" to={i.to}>
                  {i.label}
                </LinkButton>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
