import { useEffect, useId, useState } from "react";
import { useNotificationCategories, type NotificationCategoryOf } from "../hooks/use-user-data.ts";
import { useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";

/** One category's switch. It shows the choice at once; the list catches up when the SDK cache refreshes. */
function CategoryToggle({ category }: { category: NotificationCategoryOf }) {
  const id = useId();
  const [checked, setChecked] = useState(category.enabled);
  useEffect(() => setChecked(category.enabled), [category.enabled]);
  const save = useAsyncAction(async (enabled: boolean) => {
    setChecked(enabled);
    try {
      await category.setEnabled(enabled);
    } catch (error) {
      setChecked(!enabled);
      throw error;
    }
  });
  return (
    <li>
      <input
        id={id}
        type="checkbox"
        checked={checked}
        // spec §3: a category with canDisable false (e.g. transactional email) is always on.
        disabled={!category.canDisable || save.pending}
        onChange={(e) => void save.run(e.target.checked)}
      />
      <label htmlFor={id}>
        {category.name}
        {category.canDisable ? "" : " (always sent)"}
      </label>
      <ErrorMessage error={save.error} />
    </li>
  );
}

/** Which kinds of email the user receives (notification categories, spec §3; sdk-surface.md §16). */
export function NotificationsSection() {
  const categories = useNotificationCategories();
  return (
    <section className="authsim-section" aria-labelledby="authsim-notifications">
      <h2 id="authsim-notifications">Email notifications</h2>
      <ul aria-label="Notification categories">
        {categories.map((category) => (
          <CategoryToggle key={category.id} category={category} />
        ))}
      </ul>
    </section>
  );
}
