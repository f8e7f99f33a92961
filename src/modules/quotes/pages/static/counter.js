// The Counter's totals follow each change of the order (the form works without it: "Price it").
(() => {
  const form = document.getElementById('counter-form');
  if (!form) return;
  let timer = null;
  const price = () => {
    const button = document.getElementById('price');
    if (typeof form.requestSubmit === 'function') form.requestSubmit(button);
    else button.click();
  };
  form.addEventListener('change', () => {
    clearTimeout(timer);
    timer = setTimeout(price, 300);
  });
})();
